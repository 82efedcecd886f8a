import { setDefaultSandboxTranslation } from "@/lib/providers/sandbox";

// Every emulator a test creates answers translations as machine translation at its worst (every word changed,
// unknown tags dropped, placeholder names translated, escapes mangled; lib/providers/sandbox/translation.ts), so a
// syntax the gateway fails to protect fails a test. The apps the API tests start get the same through
// SANDBOX_TRANSLATION (e2e/support/app.ts). A test about something else may still ask for { translation: "echo" }.
setDefaultSandboxTranslation("hostile");
