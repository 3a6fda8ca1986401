import type { Config } from 'tailwindcss';

/**
 * Read by Tailwind 4 through `@config` in app/globals.css. Holds what is easier
 * to say in code than in CSS: where classes live and the dark-mode strategy.
 */
const config: Config = {
  content: ['./app/**/*.{ts,tsx}', './components/**/*.{ts,tsx}'],
  darkMode: 'class',
  theme: {
    extend: {
      fontFamily: {
        sans: ['ui-sans-serif', 'system-ui', '"Noto Sans CJK SC"', '"PingFang SC"', 'sans-serif'],
      },
    },
  },
};

export default config;
