-- CreateTable
CREATE TABLE "request_log" (
    "id" BIGSERIAL NOT NULL,
    "key_id" UUID NOT NULL,
    "at" TIMESTAMPTZ(3) NOT NULL,
    "request_id" TEXT NOT NULL,
    "endpoint" TEXT NOT NULL,
    "status" INTEGER NOT NULL,
    "latency_ms" INTEGER NOT NULL,
    "provider" TEXT NOT NULL DEFAULT '',
    "model" TEXT NOT NULL DEFAULT '',
    "cache" TEXT NOT NULL DEFAULT '',

    CONSTRAINT "request_log_pkey" PRIMARY KEY ("id")
);

-- CreateIndex
CREATE INDEX "request_log_key_id_at_idx" ON "request_log"("key_id", "at");

-- AddForeignKey
ALTER TABLE "request_log" ADD CONSTRAINT "request_log_key_id_fkey" FOREIGN KEY ("key_id") REFERENCES "api_keys"("id") ON DELETE CASCADE ON UPDATE CASCADE;
