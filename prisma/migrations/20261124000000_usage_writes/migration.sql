-- CreateTable
CREATE TABLE "usage_writes" (
    "id" UUID NOT NULL,
    "written_at" TIMESTAMPTZ(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,

    CONSTRAINT "usage_writes_pkey" PRIMARY KEY ("id")
);

-- CreateIndex
CREATE INDEX "usage_writes_written_at_idx" ON "usage_writes"("written_at");
