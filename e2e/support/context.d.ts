declare module "vitest" {
  export interface ProvidedContext {
    /** Which database the api-* project runs the app on. */
    database: "pglite" | "postgres";
    /** Set by global-setup for the postgres project: the maintenance database of the test server. */
    postgresAdminUrl?: string;
    /** Set by global-setup when the test PostgreSQL could not be started: why. */
    postgresSetupError?: string;
  }
}

export {};
