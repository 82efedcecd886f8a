-- CreateTable
CREATE TABLE "glossaries" (
    "id" UUID NOT NULL,
    "key_id" UUID NOT NULL,
    "name" TEXT,
    "source_lang" TEXT NOT NULL,
    "target_lang" TEXT NOT NULL,
    "entries" JSONB NOT NULL,
    "entry_count" INTEGER NOT NULL,
    "created_at" TIMESTAMPTZ(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,

    CONSTRAINT "glossaries_pkey" PRIMARY KEY ("id")
);

-- CreateIndex
CREATE INDEX "glossaries_key_id_created_at_idx" ON "glossaries"("key_id", "created_at");

-- AddForeignKey
ALTER TABLE "glossaries" ADD CONSTRAINT "glossaries_key_id_fkey" FOREIGN KEY ("key_id") REFERENCES "api_keys"("id") ON DELETE CASCADE ON UPDATE CASCADE;
