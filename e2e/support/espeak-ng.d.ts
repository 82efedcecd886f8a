/** The `espeak-ng` package (eSpeak NG compiled to WebAssembly) ships no types: the part the audio fixtures use. */
declare module "espeak-ng" {
  interface ESpeakNgInstance {
    FS: { readFile(path: string): Uint8Array };
  }
  export default function ESpeakNg(options: { arguments: string[] }): Promise<ESpeakNgInstance>;
}
