/** A notification title naming the post by its card title when it has one. */
export function withTitle(sentence: string, postTitle: string | null): string {
  return postTitle ? `${sentence}: ${postTitle}` : sentence;
}
