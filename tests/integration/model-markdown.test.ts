import { jsx } from 'react/jsx-runtime';
import { renderToStaticMarkup } from 'react-dom/server';
import { describe, expect, it } from 'vitest';
import { MarkdownPolicyProvider } from '@/components/markdown-policy';
import { ModelMarkdown } from '@/components/model-markdown';

/** The HTML a reader's browser gets for this model text; relative URLs are this site's. */
function render(markdown: string, allowedImageOrigins: string[] = []): string {
  return renderToStaticMarkup(
    // What `<MarkdownPolicyProvider><ModelMarkdown>` compiles to; test files here are plain .ts.
    jsx(MarkdownPolicyProvider, {
      allowedImageOrigins,
      children: jsx(ModelMarkdown, { isAnimating: false, children: markdown }),
    }),
  );
}

const imageSources = (html: string) =>
  [...html.matchAll(/<img [^>]*src="([^"]*)"/g)].map((match) => match[1]);
const links = (html: string) =>
  [...html.matchAll(/<a ([^>]*)>(.*?)<\/a>/g)].map(([, attributes, body]) => ({
    href: /href="([^"]*)"/.exec(attributes)?.[1],
    rel: /rel="([^"]*)"/.exec(attributes)?.[1],
    target: /target="([^"]*)"/.exec(attributes)?.[1],
    text: body.replace(/<[^>]+>/g, ''),
  }));

describe('ModelMarkdown', () => {
  it('shows an image from another site as a link naming its domain, and never loads it', () => {
    const html = render('Here: ![chart](https://evil.example/x.png?leak=secret)');
    expect(imageSources(html)).toEqual([]);
    expect(links(html)).toEqual([
      {
        href: 'https://evil.example/x.png?leak=secret',
        rel: 'noopener noreferrer',
        target: '_blank',
        text: 'chart (evil.example)',
      },
    ]);
  });

  it('treats an image written as raw HTML like a markdown one', () => {
    const html = render('<img src="http://127.0.0.1:9/x.png" alt="pixel">');
    expect(imageSources(html)).toEqual([]);
    expect(links(html)).toMatchObject([{ href: 'http://127.0.0.1:9/x.png', text: 'pixel (127.0.0.1:9)' }]);
  });

  it('shows images from this site and from the allowed origins', () => {
    const html = render(
      '![logo](/icon.svg) ![cdn](https://cdn.example.com/a.png) ![no](https://cdn.example.org/b.png)',
      ['https://cdn.example.com'],
    );
    expect(imageSources(html)).toEqual(['/icon.svg', 'https://cdn.example.com/a.png']);
    expect(links(html).map((link) => link.href)).toEqual(['https://cdn.example.org/b.png']);
  });

  it('keeps no javascript: or data: URL, as a link or as an image', () => {
    const html = render(
      '[click](javascript:alert(1)) ![pixel](data:image/png;base64,AAAA) <a href="javascript:alert(2)">raw</a> [data](data:text/html,<b>x</b>)',
    );
    expect(html).not.toMatch(/javascript:|data:/i);
    expect(html).toContain('click');
    expect(html).toContain('raw');
  });

  it('opens links in a new tab without opener or referrer and names a foreign domain', () => {
    const html = render('[your bank](https://bank.evil.example/login) and [help](/chat/abc)');
    expect(links(html)).toEqual([
      {
        href: 'https://bank.evil.example/login',
        rel: 'noopener noreferrer',
        target: '_blank',
        text: 'your bank (bank.evil.example)',
      },
      { href: '/chat/abc', rel: 'noopener noreferrer', target: '_blank', text: 'help' },
    ]);
  });
});
