import type { Element } from 'domhandler';
import { attribute, childElements, localName, textContent } from './xml.ts';

/**
 * An Office Math (OMML) equation as LaTeX, the notation readers and language models know (and the one Docling and
 * pandoc write): fractions as `\frac{a}{b}`, scripts as `^{}` and `_{}`, radicals as `\sqrt{}`, n-ary operators
 * with their limits (`\sum_{i=1}^{n}`), delimiters as `\left(...\right)`, Greek letters and operators as their
 * commands (`\pi`, `\infty`, `\leq`), the usual functions as `\sin`, `\log`, `\lim_{}`.
 */
export function ommlToLatex(element: Element): string {
  return latex(element).replace(/\s+/g, ' ').trim();
}

/** Greek letters, operators and arrows written as LaTeX commands; a space either side keeps them words. */
const SYMBOLS: Record<string, string> = {
  α: 'alpha',
  β: 'beta',
  γ: 'gamma',
  δ: 'delta',
  ε: 'varepsilon',
  ϵ: 'epsilon',
  ζ: 'zeta',
  η: 'eta',
  θ: 'theta',
  ϑ: 'vartheta',
  ι: 'iota',
  κ: 'kappa',
  λ: 'lambda',
  μ: 'mu',
  ν: 'nu',
  ξ: 'xi',
  π: 'pi',
  ϖ: 'varpi',
  ρ: 'rho',
  ϱ: 'varrho',
  σ: 'sigma',
  ς: 'varsigma',
  τ: 'tau',
  υ: 'upsilon',
  φ: 'varphi',
  ϕ: 'phi',
  χ: 'chi',
  ψ: 'psi',
  ω: 'omega',
  Γ: 'Gamma',
  Δ: 'Delta',
  Θ: 'Theta',
  Λ: 'Lambda',
  Ξ: 'Xi',
  Π: 'Pi',
  Σ: 'Sigma',
  Υ: 'Upsilon',
  Φ: 'Phi',
  Ψ: 'Psi',
  Ω: 'Omega',
  '∞': 'infty',
  '×': 'times',
  '÷': 'div',
  '·': 'cdot',
  '⋅': 'cdot',
  '±': 'pm',
  '∓': 'mp',
  '≤': 'leq',
  '≥': 'geq',
  '≠': 'neq',
  '≈': 'approx',
  '≡': 'equiv',
  '∼': 'sim',
  '∝': 'propto',
  '∈': 'in',
  '∉': 'notin',
  '⊂': 'subset',
  '⊆': 'subseteq',
  '⊃': 'supset',
  '⊇': 'supseteq',
  '∩': 'cap',
  '∪': 'cup',
  '∧': 'wedge',
  '∨': 'vee',
  '¬': 'neg',
  '∀': 'forall',
  '∃': 'exists',
  '∅': 'emptyset',
  '∂': 'partial',
  '∇': 'nabla',
  '→': 'rightarrow',
  '←': 'leftarrow',
  '↔': 'leftrightarrow',
  '⇒': 'Rightarrow',
  '⇐': 'Leftarrow',
  '⇔': 'Leftrightarrow',
  '…': 'ldots',
  '⋯': 'cdots',
  '°': 'circ',
  '′': 'prime',
};

/** Characters OMML writes that LaTeX spells otherwise. */
const PLAIN: Record<string, string> = { '−': '-', '–': '-', '∗': '*' };

/** N-ary operators by their character (`m:naryPr/m:chr`); none named is an integral. */
const NARY: Record<string, string> = {
  '∑': 'sum',
  '∏': 'prod',
  '∐': 'coprod',
  '∫': 'int',
  '∬': 'iint',
  '∭': 'iiint',
  '∮': 'oint',
  '∯': 'oiint',
  '∰': 'oiiint',
  '⋀': 'bigwedge',
  '⋁': 'bigvee',
  '⋂': 'bigcap',
  '⋃': 'bigcup',
  '⨀': 'bigodot',
  '⨁': 'bigoplus',
  '⨂': 'bigotimes',
};

/** Accents (`m:acc`) by their combining character; none named is a hat. */
const ACCENTS: Record<string, string> = {
  '\u0300': 'grave',
  '\u0301': 'acute',
  '\u0302': 'hat',
  '\u0303': 'tilde',
  '\u0304': 'bar',
  '\u0305': 'overline',
  '\u0306': 'breve',
  '\u0307': 'dot',
  '\u0308': 'ddot',
  '\u030c': 'check',
  '\u20d7': 'vec',
  '\u20d6': 'overleftarrow',
};

/** Functions LaTeX has a command for (`m:func` with that name). */
const FUNCTIONS = new Set(
  'sin cos tan cot sec csc arcsin arccos arctan sinh cosh tanh coth log ln lg exp det dim ker deg gcd hom arg lim max min sup inf'.split(
    ' ',
  ),
);

/** Characters that are LaTeX syntax, escaped when they are an equation's own text. */
const escape = (text: string) =>
  text.replace(/[{}#&$%]/g, (char) => `\\${char}`).replace(/\\(?![{}#&$%])/g, '\\backslash ');

function runText(text: string): string {
  let out = '';
  for (const char of escape(text)) {
    const symbol = SYMBOLS[char];
    out += symbol ? ` \\${symbol} ` : (PLAIN[char] ?? char);
  }
  return out;
}

const properties = (element: Element, name: string) => childElements(element, name)[0];
const propertyValue = (element: Element, pr: string, name: string) => {
  const found = properties(element, pr);
  return found ? attribute(childElements(found, name)[0], 'val') : undefined;
};

function part(element: Element, name: string): string {
  const found = childElements(element, name)[0];
  return found ? latex(found) : '';
}

/** A delimiter as `\left`/`\right` take it: an empty one is `.`, braces are escaped. */
const delimiter = (char: string) => (char === '' ? '.' : char === '{' || char === '}' ? `\\${char}` : char);

function latex(element: Element): string {
  switch (localName(element)) {
    case 't':
      return runText(textContent(element));
    case 'f': {
      const num = part(element, 'num');
      const den = part(element, 'den');
      switch (propertyValue(element, 'fPr', 'type') ?? 'bar') {
        case 'noBar':
          return `\\genfrac{}{}{0pt}{}{${num}}{${den}}`;
        case 'lin':
          return `{${num}}/{${den}}`;
        case 'skw':
          return `^{${num}}/_{${den}}`;
        default:
          return `\\frac{${num}}{${den}}`;
      }
    }
    case 'sSup':
      return `${part(element, 'e')}^{${part(element, 'sup')}}`;
    case 'sSub':
      return `${part(element, 'e')}_{${part(element, 'sub')}}`;
    case 'sSubSup':
      return `${part(element, 'e')}_{${part(element, 'sub')}}^{${part(element, 'sup')}}`;
    case 'sPre':
      return `{}_{${part(element, 'sub')}}^{${part(element, 'sup')}}${part(element, 'e')}`;
    case 'rad': {
      const degree = part(element, 'deg');
      return degree ? `\\sqrt[${degree}]{${part(element, 'e')}}` : `\\sqrt{${part(element, 'e')}}`;
    }
    case 'nary': {
      const char = propertyValue(element, 'naryPr', 'chr') ?? '∫';
      const operator = NARY[char] ? `\\${NARY[char]}` : runText(char);
      const sub = part(element, 'sub');
      const sup = part(element, 'sup');
      return `${operator}${sub ? `_{${sub}}` : ''}${sup ? `^{${sup}}` : ''}{${part(element, 'e')}}`;
    }
    case 'd': {
      const begin = propertyValue(element, 'dPr', 'begChr') ?? '(';
      const end = propertyValue(element, 'dPr', 'endChr') ?? ')';
      const separator = propertyValue(element, 'dPr', 'sepChr') ?? '|';
      const inner = childElements(element, 'e')
        .map(latex)
        .join(separator === '|' ? ' | ' : runText(separator));
      return `\\left${delimiter(begin)}${inner}\\right${delimiter(end)}`;
    }
    case 'func': {
      const name = part(element, 'fName').trim();
      const argument = part(element, 'e');
      return FUNCTIONS.has(name) ? `\\${name}{${argument}}` : `${name}{${argument}}`;
    }
    case 'limLow': {
      const base = part(element, 'e').trim();
      const limit = part(element, 'lim');
      if (FUNCTIONS.has(base)) return `\\${base}_{${limit}}`;
      // A name is an operator (`\operatorname{argmax}_{x}`); anything else takes its limit as a subscript, as
      // `\underbrace{...}_{text}` is written.
      return /^[A-Za-z]+$/.test(base) ? `\\operatorname{${base}}_{${limit}}` : `${base}_{${limit}}`;
    }
    case 'limUpp':
      return `\\overset{${part(element, 'lim')}}{${part(element, 'e')}}`;
    case 'acc': {
      const accent = ACCENTS[propertyValue(element, 'accPr', 'chr') ?? '\u0302'] ?? 'hat';
      return `\\${accent}{${part(element, 'e')}}`;
    }
    case 'bar':
      return propertyValue(element, 'barPr', 'pos') === 'top'
        ? `\\overline{${part(element, 'e')}}`
        : `\\underline{${part(element, 'e')}}`;
    case 'groupChr': {
      const top = propertyValue(element, 'groupChrPr', 'pos') === 'top';
      const char = propertyValue(element, 'groupChrPr', 'chr') ?? '⏟';
      const command = char === '⏞' || char === '⏜' ? 'overbrace' : char === '⏟' || char === '⏝' ? 'underbrace' : '';
      const inner = part(element, 'e');
      if (command) return `\\${command}{${inner}}`;
      return top ? `\\overset{${runText(char)}}{${inner}}` : `\\underset{${runText(char)}}{${inner}}`;
    }
    case 'eqArr': {
      // Word wraps a single display equation in an array of one row (to number it): that is no array.
      const rows = childElements(element, 'e').map(latex);
      return rows.length === 1 ? rows[0]! : `\\begin{array}{c}${rows.join(' \\\\ ')}\\end{array}`;
    }
    case 'm':
      return `\\begin{matrix}${childElements(element, 'mr')
        .map((row) => childElements(row, 'e').map(latex).join(' & '))
        .join(' \\\\ ')}\\end{matrix}`;
    case 'rPr':
    case 'ctrlPr':
    case 'fPr':
    case 'naryPr':
    case 'dPr':
    case 'radPr':
    case 'sSupPr':
    case 'sSubPr':
    case 'sSubSupPr':
    case 'sPrePr':
    case 'funcPr':
    case 'limLowPr':
    case 'limUppPr':
    case 'accPr':
    case 'barPr':
    case 'groupChrPr':
    case 'eqArrPr':
    case 'mPr':
    case 'boxPr':
    case 'borderBoxPr':
    case 'oMathParaPr':
    case 'argPr':
      return '';
    default:
      return childElements(element).map(latex).join('');
  }
}
