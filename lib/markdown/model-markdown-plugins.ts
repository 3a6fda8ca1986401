import type { Element, Root, RootContent } from 'hast';
import { harden } from 'rehype-harden';
import { defaultRehypePlugins, type StreamdownProps } from 'streamdown';

/** Options of {@link modelMarkdownRehypePlugins}. */
export type ModelMarkdownPolicy = {
  /** This site's origin (`https://chat.example.com`); relative URLs resolve against it. */
  siteOrigin: string;
  /** Further origins whose images may load (`TOOLGATE_ALLOWED_IMAGE_ORIGINS`). */
  allowedImageOrigins: readonly string[];
};

/** Marks a link made from an image, so the renderer can label it as one. */
export const imageLinkProperty = 'dataImageLink';

/**
 * The rehype plugins for markdown written by the model or echoed from tool output,
 * which is untrusted: a prompt-injected reply can smuggle chat text out in an image
 * URL that every reader's browser would fetch.
 *
 * Streamdown's own raw-HTML and sanitize steps run first; then rehype-harden, the
 * allowlist Streamdown itself uses, decides every URL: images only from this site
 * and the allowed origins, links only over safe protocols (no `javascript:` or
 * `data:`). Around it, each image is put in a link to its URL beforehand and taken
 * out again afterwards if harden kept it, so a refused image is left as a link
 * the reader can choose to open, never as a fetch.
 */
export function modelMarkdownRehypePlugins({
  siteOrigin,
  allowedImageOrigins,
}: ModelMarkdownPolicy): NonNullable<StreamdownProps['rehypePlugins']> {
  return [
    defaultRehypePlugins.raw,
    defaultRehypePlugins.sanitize,
    () => wrapImagesInLinks,
    [
      harden,
      {
        defaultOrigin: siteOrigin,
        allowedImagePrefixes: [siteOrigin, ...allowedImageOrigins],
        allowedLinkPrefixes: ['*'],
        allowedProtocols: [],
        allowDataImages: false,
        imageBlockPolicy: 'text-only',
        linkBlockPolicy: 'text-only',
      },
    ],
    () => unwrapKeptImages,
  ];
}

function isElement(node: RootContent): node is Element {
  return node.type === 'element';
}

function wrapImagesInLinks(tree: Root): void {
  const visit = (parent: Root | Element, insideLink: boolean) => {
    parent.children = parent.children.map((child) => {
      if (!isElement(child)) return child;
      const src = child.properties.src;
      // An image already inside a link becomes that link's text when refused.
      if (child.tagName === 'img' && !insideLink && typeof src === 'string' && src !== '') {
        return {
          type: 'element',
          tagName: 'a',
          properties: { href: src, [imageLinkProperty]: true },
          children: [child],
        } satisfies Element;
      }
      visit(child, insideLink || child.tagName === 'a');
      return child;
    }) as typeof parent.children;
  };
  visit(tree, false);
}

function unwrapKeptImages(tree: Root): void {
  const visit = (parent: Root | Element) => {
    parent.children = parent.children.map((child) => {
      if (!isElement(child)) return child;
      if (child.tagName === 'a' && child.properties[imageLinkProperty] === true) {
        const image = child.children.find((inner) => isElement(inner) && inner.tagName === 'img');
        if (image !== undefined) return image;
        return child;
      }
      visit(child);
      return child;
    }) as typeof parent.children;
  };
  visit(tree);
}
