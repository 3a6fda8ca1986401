import type { Element } from 'hast';
import { ImageOff } from 'lucide-react';
import { type ComponentProps, useMemo } from 'react';
import { Streamdown, type StreamdownProps } from 'streamdown';
import { imageLinkProperty, modelMarkdownRehypePlugins } from '@/lib/markdown/model-markdown-plugins';
import { useAllowedImageOrigins, useSiteOrigin } from './markdown-policy';

/**
 * Markdown from the model or from tool output, rendered as untrusted: images only
 * from this site and the allowed origins, every other image a link showing its
 * domain, links opening in a new tab without a referrer or an opener.
 */
export function ModelMarkdown({ children, isAnimating }: { children: string; isAnimating: boolean }) {
  const siteOrigin = useSiteOrigin();
  const allowedImageOrigins = useAllowedImageOrigins();
  const rehypePlugins = useMemo(
    () => modelMarkdownRehypePlugins({ siteOrigin, allowedImageOrigins }),
    [siteOrigin, allowedImageOrigins],
  );
  return (
    <Streamdown
      isAnimating={isAnimating}
      rehypePlugins={rehypePlugins}
      // Our links show their domain instead of Streamdown's confirm dialog, and stay real links.
      linkSafety={{ enabled: false }}
      components={components}
    >
      {children}
    </Streamdown>
  );
}

const components: StreamdownProps['components'] = { a: ModelLink };

/** A link that names where it goes when that is another site: `[your bank](https://evil.example)` shows `evil.example`. */
function ModelLink({ href, children, node }: ComponentProps<'a'> & { node?: Element }) {
  const siteOrigin = useSiteOrigin();
  // Harden already refused unsafe URLs; what is left without an href is plain text.
  if (href === undefined || href === '') return <span>{children}</span>;
  const isImage = node?.properties[imageLinkProperty] === true;
  const foreignHost = foreignHostOf(href, siteOrigin);
  return (
    <a
      href={href}
      target="_blank"
      rel="noopener noreferrer"
      data-streamdown="link"
      data-image-link={isImage || undefined}
      className="wrap-anywhere font-medium text-primary underline"
    >
      {isImage && <ImageOff className="mr-1 inline size-3.5 align-[-2px]" aria-hidden="true" />}
      {children}
      {foreignHost !== null && <span className="font-normal text-muted-foreground"> ({foreignHost})</span>}
    </a>
  );
}

function foreignHostOf(href: string, siteOrigin: string): string | null {
  try {
    const url = new URL(href, siteOrigin);
    return /^https?:$/.test(url.protocol) && url.origin !== siteOrigin ? url.host : null;
  } catch {
    return null;
  }
}
