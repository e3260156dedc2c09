import { describe, expect, it } from 'vitest';
import { backspaceInBox, completeCode, emptyCode, pasteCode, typeIntoBox } from '@/features/auth/code-boxes';

const digits = (code: string) => code.split('').map((c) => (c === '_' ? '' : c));

describe('code boxes (spec §5)', () => {
  it('start as five empty boxes', () => {
    expect(emptyCode()).toEqual(['', '', '', '', '']);
    expect(completeCode(emptyCode())).toBeNull();
  });

  it('a typed digit fills the box and moves to the next one', () => {
    expect(typeIntoBox(emptyCode(), 0, '4')).toEqual({ digits: digits('4____'), focus: 1 });
    expect(typeIntoBox(digits('1234_'), 4, '5')).toEqual({ digits: digits('12345'), focus: 4 });
  });

  it('non-digits are cleared and focus stays', () => {
    expect(typeIntoBox(digits('1____'), 1, 'a')).toEqual({ digits: digits('1____'), focus: 1 });
    expect(typeIntoBox(digits('12___'), 1, '2x')).toEqual({ digits: digits('12___'), focus: 2 });
  });

  it('typing over a filled box keeps the new digit only', () => {
    // the browser reports old + new: "35"
    expect(typeIntoBox(digits('3____'), 0, '35').digits).toEqual(digits('5____'));
  });

  it('clearing a box empties it', () => {
    expect(typeIntoBox(digits('123__'), 2, '')).toEqual({ digits: digits('12___'), focus: 2 });
  });

  it('a paste of exactly 5 digits fills every box', () => {
    expect(pasteCode('12345')).toEqual({ digits: digits('12345'), focus: 4 });
    expect(pasteCode(' 54321\n')).toEqual({ digits: digits('54321'), focus: 4 });
  });

  it('any other paste changes nothing', () => {
    for (const text of ['1234', '123456', '12a45', '12 345', '', 'abcde']) expect(pasteCode(text), text).toBeNull();
  });

  it('one-time-code autofill of the whole code into one box counts as a paste', () => {
    expect(typeIntoBox(emptyCode(), 0, '98765')).toEqual({ digits: digits('98765'), focus: 4 });
  });

  it('backspace in an empty box clears the previous box and moves there', () => {
    expect(backspaceInBox(digits('12___'), 2)).toEqual({ digits: digits('1____'), focus: 1 });
    expect(backspaceInBox(digits('123__'), 2)).toEqual({ digits: digits('12___'), focus: 2 });
    expect(backspaceInBox(emptyCode(), 0)).toEqual({ digits: emptyCode(), focus: 0 });
  });

  it('the code is complete only when all five boxes hold a digit', () => {
    expect(completeCode(digits('12345'))).toBe('12345');
    expect(completeCode(digits('1234_'))).toBeNull();
    expect(completeCode(digits('_2345'))).toBeNull();
  });
});
