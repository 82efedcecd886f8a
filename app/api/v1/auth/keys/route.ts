import { methodNotAllowed } from "@/lib/http/methods";
import { apiRoute } from "@/lib/http/route";
import { IssueKeyRequest } from "@/lib/keys/schemas";
import { issueKey } from "@/lib/keys/store";

/**
 * POST /api/v1/auth/keys — issue an API key. No authentication; throttled per client IP.
 * The plain key is in this response and nowhere else, ever.
 */
export const POST = apiRoute({
  auth: "none",
  rateLimit: "issuance",
  body: IssueKeyRequest,
  maxBodyBytes: 16 * 1024,
  handler: async ({ body }) => {
    const { apiKey, row } = await issueKey(body.name, body.expires_in_days);
    return {
      api_key: apiKey,
      name: row.name,
      created_at: row.createdAt.toISOString(),
      expires_at: row.expiresAt.toISOString(),
    };
  },
});

const notAllowed = methodNotAllowed("POST");

export { notAllowed as GET, notAllowed as PUT, notAllowed as PATCH, notAllowed as DELETE };
