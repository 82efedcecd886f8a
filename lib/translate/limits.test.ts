import { describe, expect, it } from "vitest";
import { Semaphore } from "@/lib/kit/semaphore";
import { HF_MAX_INPUT_TOKENS as PROVIDER_C_MAX_TOKENS } from "@/lib/providers/huggingface";
import { checkProviderLimit, codePointLength, estimateTokens } from "./limits";

describe("limits", () => {
  it("counts code points, not UTF-16 units", () => {
    expect(codePointLength("abc")).toBe(3);
    expect(codePointLength("😀😀")).toBe(2);
    expect(codePointLength("Ẹ kú")).toBe(4);
  });

  it("estimates tokens from UTF-8 bytes / 2.5 + 3 special tokens, prefix included", () => {
    expect(estimateTokens("a".repeat(25))).toBe(13);
    expect(estimateTokens("a".repeat(25), ">>zul<< ")).toBe(Math.ceil(33 / 2.5) + 3);
    expect(estimateTokens("ሰ".repeat(10))).toBe(Math.ceil(30 / 2.5) + 3); // Ethiopic: 3 bytes a character
  });

  it("provider_c accepts ~1,270 ASCII characters and fewer multi-byte ones; provider_b 1,000 characters; provider_a 5,000", () => {
    expect(checkProviderLimit("provider_c", "a".repeat(1_272)).ok).toBe(true);
    expect(checkProviderLimit("provider_c", "a".repeat(1_273)).ok).toBe(false);
    expect(checkProviderLimit("provider_c", "ሰ".repeat(500)).ok).toBe(false);
    expect(checkProviderLimit("provider_c", "a").limit).toBe(`${PROVIDER_C_MAX_TOKENS} tokens`);
    expect(checkProviderLimit("provider_b", "😀".repeat(1_000)).ok).toBe(true);
    expect(checkProviderLimit("provider_b", "a".repeat(1_001))).toMatchObject({ ok: false, limit: "1,000 characters", actual: "1,001 characters" });
    expect(checkProviderLimit("provider_a", "a".repeat(5_000)).ok).toBe(true);
    expect(checkProviderLimit("provider_a", "a".repeat(5_001)).ok).toBe(false);
  });
});

describe("Semaphore", () => {
  it("never lets more than `limit` holders in, hands slots over in order, and times waiters out at their deadline", async () => {
    const sem = new Semaphore(2);
    let active = 0;
    let max = 0;
    const order: number[] = [];
    await Promise.all(
      Array.from({ length: 6 }, async (_, i) => {
        const release = await sem.acquire(Date.now() + 5_000);
        active++;
        max = Math.max(max, active);
        order.push(i);
        await new Promise((r) => setTimeout(r, 20));
        active--;
        release();
      }),
    );
    expect(max).toBe(2);
    expect(order).toEqual([0, 1, 2, 3, 4, 5]);
    const hold = await sem.acquire(Date.now() + 1_000);
    const hold2 = await sem.acquire(Date.now() + 1_000);
    await expect(sem.acquire(Date.now() + 30)).rejects.toThrow("deadline");
    hold();
    hold2();
    const again = await sem.acquire(Date.now() + 30); // the timed-out waiter did not keep a slot
    again();
  });
});
