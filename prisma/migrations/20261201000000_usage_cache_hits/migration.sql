-- AlterTable
ALTER TABLE "usage_daily" ADD COLUMN     "cache_hits" BIGINT NOT NULL DEFAULT 0;
