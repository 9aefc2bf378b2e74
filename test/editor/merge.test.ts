import { describe, expect, it } from 'vitest';
import { mergeEdits } from '../../app/editor/client/merge.js';

const base = ['---', 'title: Home', '---', '', '# Welcome', '', 'First paragraph.', '', 'Middle one.', '', 'Second paragraph.', '', 'Third paragraph.', ''].join('\n');

describe('the conflict dialog merge (mergeEdits)', () => {
  it('keeps both edits when they touch different parts of the file', () => {
    const mine = base.replace('Third paragraph.', 'Third paragraph, edited by me.');
    const theirs = base.replace('title: Home', 'title: Start');
    const merged = mergeEdits(base, mine, theirs);
    expect(merged).toBe(base.replace('title: Home', 'title: Start').replace('Third paragraph.', 'Third paragraph, edited by me.'));
  });

  it('refuses when both changed the same lines, or lines next to each other', () => {
    expect(mergeEdits(base, base.replace('First paragraph.', 'Mine.'), base.replace('First paragraph.', 'Theirs.'))).toBeUndefined();
    expect(mergeEdits(base, base.replace('Middle one.', 'Mine.'), base.replace('Second paragraph.', 'Theirs.'))).toBeUndefined();
  });

  it('keeps both when both added at the end of the file (theirs first, as it was saved first)', () => {
    const mine = `${base}Mine at the end.\n`;
    const theirs = `${base}Theirs at the end.\n`;
    const merged = mergeEdits(base, mine, theirs);
    expect(merged).toContain('Mine at the end.');
    expect(merged).toContain('Theirs at the end.');
  });

  it('needs no patch when one side did not change, or both made the same change', () => {
    const edited = base.replace('# Welcome', '# Hello');
    expect(mergeEdits(base, base, edited)).toBe(edited);
    expect(mergeEdits(base, edited, base)).toBe(edited);
    expect(mergeEdits(base, edited, edited)).toBe(edited);
  });

  it('keeps CRLF line endings and a missing final newline as they are', () => {
    const crlf = base.replace(/\n/g, '\r\n').replace(/\r\n$/, '');
    const mine = crlf.replace('Third paragraph.', 'Third, mine.');
    const theirs = crlf.replace('# Welcome', '# Hi');
    expect(mergeEdits(crlf, mine, theirs)).toBe(crlf.replace('# Welcome', '# Hi').replace('Third paragraph.', 'Third, mine.'));
  });
});
