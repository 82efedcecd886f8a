// The part of gettext-parser 10's API that lib/catalog uses (the package ships no types).
declare module "gettext-parser" {
  export interface GetTextComment {
    translator?: string;
    extracted?: string;
    reference?: string;
    flag?: string;
    previous?: string;
  }
  export interface GetTextTranslation {
    msgctxt?: string;
    msgid: string;
    msgid_plural?: string;
    msgstr: string[];
    comments?: GetTextComment;
    obsolete?: boolean;
  }
  export interface GetTextTranslations {
    charset: string;
    headers: Record<string, string>;
    translations: Record<string, Record<string, GetTextTranslation>>;
    obsolete?: Record<string, Record<string, GetTextTranslation>>;
  }
  export const po: {
    parse(input: string | Buffer, options?: { defaultCharset?: string; validation?: boolean }): GetTextTranslations;
  };
}
