import { describe, expect, it } from 'vitest';
import { gatePost } from './gating';
import { bodyParagraphs, htmlText, plainText } from './html-text';
import { ADVERSARIAL_BODIES, growth, LINEAR_GROWTH_LIMIT } from './testing';

describe('reading markup as text on the server', () => {
  it('drops tags, decodes every entity and leaves out script and style', () => {
    expect(
      plainText(
        '<p>Take a <b>short</b> walk&nbsp;today</p>\n<p>Tom &amp; Jerry &lt;3 &hellip; &#x1F600;</p>',
      ),
    ).toBe('Take a short walk today Tom & Jerry <3 … 😀');
    expect(plainText('<style>p{color:red}</style>Calm<script>alert(1)</script> down')).toBe('Calm down');
    expect(plainText('a < b and c > d, <3')).toBe('a < b and c > d, <3');
  });

  it('reads blocks as paragraphs and <br> as a line break', () => {
    expect(bodyParagraphs('<p>Hello <b>you</b></p><p>A &amp; B<br>next</p><div>Last</div>')).toEqual([
      'Hello you',
      'A & B\nnext',
      'Last',
    ]);
    expect(bodyParagraphs('One\nline two\n\nThree\r\n\r\n\r\nFour')).toEqual([
      'One\nline two',
      'Three',
      'Four',
    ]);
    expect(htmlText('a<br/>b</br>c')).toBe('a\nb\nc');
    expect(bodyParagraphs(undefined)).toEqual([]);
  });

  it.each(Object.entries(ADVERSARIAL_BODIES))('stays linear in the body: %s', (_, make) => {
    expect(growth(plainText, make)).toBeLessThan(LINEAR_GROWTH_LIMIT);
    expect(growth(bodyParagraphs, make)).toBeLessThan(LINEAR_GROWTH_LIMIT);
  });

  it("gates a premium body of 50,000 '<' in time linear in its size, previewing its text", () => {
    const gate = (body: string) => gatePost({ type: 1, body }, null);
    expect(gate('<'.repeat(50_000)).preview).toBe(`${'<'.repeat(150)}...`);
    // 6,250 and then 50,000 '<'.
    expect(growth(gate, ADVERSARIAL_BODIES['unclosed <']!)).toBeLessThan(LINEAR_GROWTH_LIMIT);
  });
});
