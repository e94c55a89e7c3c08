import { SYSTEM_FONT_STACK } from './defaults';
import type { SiteSettings } from './types';

/** A font setting is usually one family name ('Poppins'); give it the system stack to fall back on. */
export function fontStack(font: string): string {
  const value = font.trim();
  if (!value) return SYSTEM_FONT_STACK;
  if (value.includes(',')) return value;
  const family = /^[\w-]+$/.test(value) ? value : `"${value.replace(/"/g, '')}"`;
  return `${family}, ${SYSTEM_FONT_STACK}`;
}

/** The CSS custom properties styles.css reads, from the settings. */
export function cssVariables(settings: SiteSettings): Record<string, string> {
  return {
    '--color-background': settings.backgroundcolor,
    '--color-text': settings.defaultfontcolor,
    '--color-heading': settings.headingcolor,
    '--color-paragraph': settings.paragraphcolor,
    '--color-button': settings.buttoncolor,
    '--color-button-text': settings.buttonfontcolor,
    '--color-input-border': settings.inputbordercolor,
    '--font-body': fontStack(settings.defaultfont),
    '--font-heading': fontStack(settings.headingfont),
    '--font-paragraph': fontStack(settings.paragraphfont),
  };
}
