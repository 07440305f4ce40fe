/** The CommonMark specification's examples (devDependency commonmark-spec; it ships no types). */
declare module 'commonmark-spec' {
  export interface SpecExample {
    /** The example's markdown; '→' stands for a tab, as in the specification's text. */
    markdown: string;
    /** The reference HTML rendering; '→' stands for a tab. */
    html: string;
    /** The heading of the specification section holding the example. */
    section: string;
    /** The example's number, as on spec.commonmark.org. */
    number: number;
  }
  export const tests: SpecExample[];
  export const text: string;
}
