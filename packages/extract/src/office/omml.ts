import type { Element } from 'domhandler';
import { attribute, childElements, localName, textContent } from './xml.ts';

/**
 * An Office Math (OMML) equation in linear form, close to what Word's own "linear" view shows: fractions as
 * (a)/(b), scripts with ^ and _, radicals as √(x), n-ary operators with their limits.
 */
export function ommlToLinear(element: Element): string {
  return linear(element).replace(/\s+/g, ' ').trim();
}

const group = (text: string) => (text.length <= 1 ? text : `(${text})`);

function part(element: Element, name: string): string {
  const found = childElements(element, name)[0];
  return found ? linear(found) : '';
}

function linear(element: Element): string {
  switch (localName(element)) {
    case 't':
      return textContent(element);
    case 'f':
      return `${group(part(element, 'num'))}/${group(part(element, 'den'))}`;
    case 'sSup':
      return `${part(element, 'e')}^${group(part(element, 'sup'))}`;
    case 'sSub':
      return `${part(element, 'e')}_${group(part(element, 'sub'))}`;
    case 'sSubSup':
      return `${part(element, 'e')}_${group(part(element, 'sub'))}^${group(part(element, 'sup'))}`;
    case 'rad': {
      const degree = part(element, 'deg');
      return degree ? `root(${degree})(${part(element, 'e')})` : `√(${part(element, 'e')})`;
    }
    case 'nary': {
      const operator = attribute(childElements(childElements(element, 'naryPr')[0] ?? element, 'chr')[0], 'val') ?? '∫';
      const sub = part(element, 'sub');
      const sup = part(element, 'sup');
      return `${operator}${sub ? `_${group(sub)}` : ''}${sup ? `^${group(sup)}` : ''} ${part(element, 'e')}`;
    }
    case 'd': {
      const properties = childElements(element, 'dPr')[0];
      const begin = (properties && attribute(childElements(properties, 'begChr')[0], 'val')) ?? '(';
      const end = (properties && attribute(childElements(properties, 'endChr')[0], 'val')) ?? ')';
      return `${begin}${childElements(element, 'e').map(linear).join(',')}${end}`;
    }
    case 'func':
      return `${part(element, 'fName')} ${part(element, 'e')}`;
    case 'rPr':
    case 'ctrlPr':
    case 'fPr':
    case 'naryPr':
    case 'dPr':
    case 'radPr':
    case 'sSupPr':
    case 'sSubPr':
    case 'oMathParaPr':
      return '';
    default:
      return childElements(element).map(linear).join('');
  }
}
