-- AlterTable
ALTER TABLE "usage_breakdown" ADD COLUMN "upstream_calls" BIGINT NOT NULL DEFAULT 0;

-- AlterTable
ALTER TABLE "request_log" ADD COLUMN "upstream_calls" INTEGER NOT NULL DEFAULT 0;
