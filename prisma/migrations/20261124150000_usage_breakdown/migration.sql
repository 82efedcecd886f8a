-- CreateTable
CREATE TABLE "usage_breakdown" (
    "key_id" UUID NOT NULL,
    "day" DATE NOT NULL,
    "endpoint" TEXT NOT NULL,
    "status" INTEGER NOT NULL,
    "language_pair" TEXT NOT NULL DEFAULT '',
    "provider" TEXT NOT NULL DEFAULT '',
    "requests" BIGINT NOT NULL DEFAULT 0,
    "characters" BIGINT NOT NULL DEFAULT 0,
    "cache_hits" BIGINT NOT NULL DEFAULT 0,

    CONSTRAINT "usage_breakdown_pkey" PRIMARY KEY ("key_id","day","endpoint","status","language_pair","provider")
);

-- AddForeignKey
ALTER TABLE "usage_breakdown" ADD CONSTRAINT "usage_breakdown_key_id_fkey" FOREIGN KEY ("key_id") REFERENCES "api_keys"("id") ON DELETE CASCADE ON UPDATE CASCADE;
