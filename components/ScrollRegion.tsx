import type { ReactNode } from "react";

/**
 * A box that scrolls sideways when its content (a wide table, a long code line) does not fit — on a phone, say.
 * It can be focused and scrolled with the arrow keys, is announced by its label, and shows a shadow on the side where
 * more content is hidden (globals.css, .scroll-region).
 */
export function ScrollRegion({ label, className = "", children }: { label: string; className?: string; children: ReactNode }) {
  return (
    // biome-ignore lint/a11y/noNoninteractiveTabindex: a scrollable region must be reachable by keyboard to be scrolled without a mouse
    <section aria-label={label} tabIndex={0} className={`scroll-region ${className}`}>
      {children}
    </section>
  );
}
