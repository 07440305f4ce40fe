import { ArchiveRejected, type ReadArchive } from '../../exports';
import { POST_SCHEMA, postDocumentText } from '../../posts';
import {
  ExportedChainsInvalid,
  verifyExportedChains,
  type ExportedContentChain,
  type ExportedIdentityChain,
} from '../../protocol';

const CHAIN_FILES = ['chains/identity.json', 'chains/content.json', 'chains/signers.json'] as const;

interface ArchivedPost {
  title: string | null;
  body: string;
  contentId?: string | null;
}

/**
 * Verifies a space archive's `chains/` before the first write (docs/decisions/0235): absent, there
 * is nothing to verify (null: an archive from before the files, or built without them); present,
 * the three files come together, the identity chain is the manifest's space's, every chain
 * verifies offline with the protocol's rules, and every public post of posts.json (one naming a
 * contentId) is its chain's current post/v1 document: the same title and above-fold body. Answers
 * how many content chains verified; throws ArchiveRejected naming the first fault.
 */
export async function verifySpaceArchiveChains(read: ReadArchive): Promise<number | null> {
  const present = CHAIN_FILES.filter((file) => read.has(file));
  if (present.length === 0) return null;
  const missing = CHAIN_FILES.find((file) => !read.has(file));
  if (missing) throw new ArchiveRejected(`${missing} is missing (the chains/ files come together)`);
  const identity = read.get('chains/identity.json') as ExportedIdentityChain;
  const manifest = read.get('manifest.json') as { space: { did: string } };
  if (identity.did !== manifest.space.did) {
    throw new ArchiveRejected(`chains/identity.json is not the identity chain of ${manifest.space.did}`);
  }
  let chains: Awaited<ReturnType<typeof verifyExportedChains>>;
  try {
    chains = await verifyExportedChains({
      identity,
      signers: read.get('chains/signers.json') as ExportedIdentityChain[],
      content: read.get('chains/content.json') as ExportedContentChain[],
    });
  } catch (error) {
    if (error instanceof ExportedChainsInvalid) throw new ArchiveRejected(error.message);
    throw error;
  }
  for (const [index, post] of (read.get('posts.json') as ArchivedPost[]).entries()) {
    if (!post.contentId) continue;
    const where = `posts.json/${index}`;
    const chain = chains.get(post.contentId);
    if (!chain)
      throw new ArchiveRejected(`${where}: its chain ${post.contentId} is not in chains/content.json`);
    const document = chain.document;
    if (chain.isDeleted || document === null) {
      throw new ArchiveRejected(`${where}: its chain ${post.contentId} holds no current document`);
    }
    if (document.$schema !== POST_SCHEMA) {
      throw new ArchiveRejected(`${where}: its chain's document is not a post/v1 document`);
    }
    const text = postDocumentText(post.title, post.body);
    for (const field of ['title', 'body'] as const) {
      if (document[field] !== text[field]) {
        throw new ArchiveRejected(`${where}: its ${field} is not the one its chain's document holds`);
      }
    }
  }
  return chains.size;
}
