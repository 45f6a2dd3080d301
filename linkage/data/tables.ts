/**
 * Lookup tables of the corruption model, authored for this project (linkage/README.md, "Data"; nothing here is copied
 * from FEBRL, GeCo or pseudopeople files).
 */

/** `a=b; c=d` as [[a, b], [c, d]]. */
const pairs = (text: string) => text.split('; ').map((p) => p.split('=') as [string, string]);

/** QWERTY rows; neighbours are the keys left/right, and the diagonal/vertical keys of the rows above and below. */
const ROWS = ['1234567890', 'qwertyuiop', 'asdfghjkl', 'zxcvbnm'];
const ROW_OFFSET = [0, 0.5, 0.75, 1.25];

/** Keyboard neighbours of each lower-case letter and digit (same row, and rows above/below within one key). */
export const KEY_NEIGHBOURS: Record<string, string> = (() => {
  const pos = new Map<string, [number, number]>();
  ROWS.forEach((row, r) => [...row].forEach((ch, c) => pos.set(ch, [r, c + ROW_OFFSET[r]!])));
  const out: Record<string, string> = {};
  for (const [ch, [r, x]] of pos) {
    let n = '';
    for (const [other, [r2, x2]] of pos) if (other !== ch && Math.abs(r2 - r) <= 1 && Math.abs(x2 - x) <= 1) n += other;
    out[ch] = n;
  }
  return out;
})();

/** OCR confusions (either direction): shapes a scanner mistakes for each other. */
export const OCR_PAIRS: Array<[string, string]> = pairs(
  'm=rn; w=vv; d=cl; n=ri; h=b; l=1; i=l; o=0; s=5; z=2; b=6; g=9; e=c; u=v; a=o; t=f; k=lc',
);

/** Phonetic spelling variants as [pattern, replacement]; each applies in both directions where it reads naturally. */
export const PHONETIC_RULES: Array<[RegExp, string]> = [
  [/ph/, 'f'],
  [/f/, 'ph'],
  [/ck/, 'k'],
  [/c(?=[ei])/, 's'],
  [/k/, 'c'],
  [/gh/, 'g'],
  [/ie$/, 'y'],
  [/y$/, 'ie'],
  [/ey$/, 'y'],
  [/ou/, 'o'],
  [/ll/, 'l'],
  [/l(?=[aeiouy])/, 'll'],
  [/tt/, 't'],
  [/nn/, 'n'],
  [/ss/, 's'],
  [/rr/, 'r'],
  [/mm/, 'm'],
  [/e$/, ''],
  [/son$/, 'sen'],
  [/sen$/, 'son'],
  [/^mc/, 'mac'],
  [/^mac/, 'mc'],
  [/th/, 't'],
  [/ae/, 'e'],
  [/ei/, 'ie'],
  [/ie/, 'ei'],
  [/sch/, 'sh'],
  [/z/, 's'],
  [/x$/, 'cks'],
  [/qu/, 'kw'],
  [/wr/, 'r'],
  [/kn/, 'n'],
  [/i(?=[^aeiou]$)/, 'y'],
  [/y(?=[^aeiou])/, 'i'],
  [/ai/, 'ay'],
  [/er$/, 'ar'],
  [/an$/, 'en'],
  [/en$/, 'an'],
  [/j/, 'g'],
];

/**
 * Formal given name → common nicknames/diminutives (US usage). Read in both directions: a formal name may become a
 * nickname, a nickname may go back to its formal name.
 */
export const NICKNAMES: Record<string, string[]> = {
  abigail: ['abby', 'gail'],
  abraham: ['abe'],
  albert: ['al', 'bert'],
  alexander: ['alex', 'xander', 'sandy'],
  alexandra: ['alex', 'sandra', 'lexi'],
  alfred: ['al', 'alfie', 'fred'],
  alice: ['allie'],
  allison: ['allie', 'ally'],
  amanda: ['mandy', 'amy'],
  andrew: ['andy', 'drew'],
  angela: ['angie'],
  anthony: ['tony'],
  arthur: ['art'],
  barbara: ['barb', 'babs'],
  benjamin: ['ben', 'benny'],
  bernard: ['bernie'],
  beverly: ['bev'],
  bradley: ['brad'],
  brandon: ['bran'],
  calvin: ['cal'],
  cameron: ['cam'],
  carol: ['carrie'],
  caroline: ['carrie', 'carol'],
  catherine: ['cathy', 'kate', 'katie'],
  charles: ['charlie', 'chuck', 'chaz'],
  charlotte: ['charlie', 'lottie'],
  christina: ['chris', 'tina'],
  christine: ['chris', 'tina'],
  christopher: ['chris', 'topher'],
  clifford: ['cliff'],
  cynthia: ['cindy'],
  daniel: ['dan', 'danny'],
  david: ['dave', 'davey'],
  deborah: ['deb', 'debbie'],
  dennis: ['denny'],
  donald: ['don', 'donnie'],
  dorothy: ['dot', 'dottie'],
  douglas: ['doug'],
  edward: ['ed', 'eddie', 'ted', 'ned'],
  eleanor: ['ellie', 'nora'],
  elizabeth: ['liz', 'beth', 'betsy', 'lizzie', 'eliza'],
  emily: ['em', 'emmy'],
  eugene: ['gene'],
  evelyn: ['evie'],
  frances: ['fran', 'frannie'],
  francis: ['frank'],
  frank: ['frankie'],
  frederick: ['fred', 'freddie'],
  gabriel: ['gabe'],
  gabriella: ['gabby'],
  gerald: ['jerry'],
  gregory: ['greg'],
  harold: ['hal', 'harry'],
  harry: ['hank'],
  henry: ['hank', 'harry'],
  herbert: ['herb'],
  isabella: ['bella', 'izzy'],
  jacob: ['jake'],
  james: ['jim', 'jimmy', 'jamie'],
  janet: ['jan'],
  jeffrey: ['jeff'],
  jennifer: ['jen', 'jenny'],
  jessica: ['jess', 'jessie'],
  john: ['jack', 'johnny'],
  jonathan: ['jon', 'johnny'],
  joseph: ['joe', 'joey'],
  joshua: ['josh'],
  judith: ['judy'],
  julia: ['julie'],
  katherine: ['kate', 'kathy', 'katie'],
  kathleen: ['kathy', 'kath'],
  kenneth: ['ken', 'kenny'],
  kimberly: ['kim'],
  lawrence: ['larry'],
  leonard: ['leo', 'len', 'lenny'],
  lillian: ['lily'],
  louis: ['lou'],
  margaret: ['maggie', 'meg', 'peggy', 'marge'],
  martha: ['marty'],
  matthew: ['matt'],
  megan: ['meg'],
  melissa: ['missy', 'mel'],
  michael: ['mike', 'mikey', 'mick'],
  michelle: ['shelly'],
  mitchell: ['mitch'],
  nathan: ['nate'],
  nathaniel: ['nate', 'nat'],
  nicholas: ['nick', 'nicky'],
  nicole: ['nikki'],
  oliver: ['ollie'],
  pamela: ['pam'],
  patricia: ['pat', 'patty', 'trish'],
  patrick: ['pat', 'paddy'],
  peter: ['pete'],
  philip: ['phil'],
  phillip: ['phil'],
  rebecca: ['becky', 'becca'],
  richard: ['rick', 'dick', 'rich', 'richie'],
  robert: ['bob', 'rob', 'bobby', 'robbie'],
  ronald: ['ron', 'ronnie'],
  russell: ['russ'],
  samantha: ['sam', 'sammy'],
  samuel: ['sam', 'sammy'],
  sandra: ['sandy'],
  stephanie: ['steph'],
  stephen: ['steve'],
  steven: ['steve'],
  susan: ['sue', 'susie'],
  suzanne: ['sue', 'suzy'],
  theodore: ['ted', 'teddy', 'theo'],
  theresa: ['terry', 'tess'],
  thomas: ['tom', 'tommy'],
  timothy: ['tim', 'timmy'],
  valerie: ['val'],
  victoria: ['vicky', 'tori'],
  vincent: ['vince', 'vinny'],
  virginia: ['ginny'],
  walter: ['walt', 'wally'],
  william: ['bill', 'will', 'billy', 'willie', 'liam'],
  zachary: ['zach', 'zack'],
  raymond: ['ray'],
  gary: ['gare'],
  terrence: ['terry'],
  jerome: ['jerry'],
  dominic: ['dom'],
  maximilian: ['max'],
  maxwell: ['max'],
  vivian: ['viv'],
  veronica: ['ronnie'],
  cassandra: ['cassie'],
};

/** Formal names of NICKNAMES usually given to girls (the rest are usually given to boys). */
const FEMALE_FORMAL = new Set(
  (
    'abigail alexandra alice allison amanda angela barbara beverly carol caroline catherine charlotte christina ' +
    'christine cynthia ' +
    'deborah dorothy eleanor elizabeth emily evelyn frances gabriella isabella janet jennifer jessica judith ' +
    'julia katherine kathleen ' +
    'kimberly lillian margaret martha megan melissa michelle nicole pamela patricia rebecca samantha sandra ' +
    'stephanie susan suzanne ' +
    'theresa valerie victoria virginia vivian veronica cassandra'
  ).split(' '),
);

/** Formal names of the nickname table by sex, title case (for drawing entities' given names). */
export const FORMAL_NAMES: Record<'F' | 'M', string[]> = (() => {
  const title = (n: string) => n[0]!.toUpperCase() + n.slice(1);
  const all = Object.keys(NICKNAMES);
  return {
    F: all.filter((n) => FEMALE_FORMAL.has(n)).map(title),
    M: all.filter((n) => !FEMALE_FORMAL.has(n)).map(title),
  };
})();

/** Nickname → formal names that have it (the reverse direction of NICKNAMES). */
export const FORMAL_OF: Record<string, string[]> = (() => {
  const out: Record<string, string[]> = {};
  for (const [formal, nicks] of Object.entries(NICKNAMES)) for (const n of nicks) (out[n] ??= []).push(formal);
  return out;
})();

/** Legal-suffix variant families (cleanco-style categories): any member may be written as another, or dropped. */
export const LEGAL_SUFFIXES: string[][] = [
  ['Inc', 'Inc.', 'Incorporated'],
  ['LLC', 'L.L.C.', 'Limited Liability Company'],
  ['Corp', 'Corp.', 'Corporation'],
  ['Co', 'Co.', 'Company'],
  ['LLP', 'L.L.P.'],
  ['PC', 'P.C.', 'Professional Corporation'],
  ['PLLC', 'P.L.L.C.'],
];

/** Healthcare generic words and their abbreviations. */
export const GENERIC_WORDS: Array<[string, string]> = pairs(
  'Hospital=Hosp; Medical=Med; Center=Ctr; Saint=St; Mount=Mt; Associates=Assoc; University=Univ; ' +
    'Health System=HS; Services=Svcs; Department=Dept; Memorial=Mem; Regional=Reg; Community=Comm; Clinic=Clin',
);

/** USPS street suffixes (Pub. 28 style) and directionals. */
export const STREET_ABBREVIATIONS: Array<[string, string]> = pairs(
  'Street=St; Avenue=Ave; Road=Rd; Boulevard=Blvd; Drive=Dr; Lane=Ln; Court=Ct; Place=Pl; Terrace=Ter; ' +
    'Parkway=Pkwy; Highway=Hwy; Circle=Cir; Square=Sq; North=N; South=S; East=E; West=W',
);

/** City aliases and abbreviations. */
export const CITY_ABBREVIATIONS: Array<[string, string]> = pairs(
  'Saint=St; Fort=Ft; Mount=Mt; North=N; South=S; East=E; West=W; City=Cty; Island=Is',
);

/** Practitioner credentials and how they are written. */
export const CREDENTIALS: Record<string, string[]> = {
  MD: ['MD', 'M.D.', ', MD', 'MD, FACP'],
  DO: ['DO', 'D.O.', ', DO'],
  NP: ['NP', 'N.P.', 'APRN, NP'],
  'PA-C': ['PA-C', 'PA', 'P.A.-C'],
  DDS: ['DDS', 'D.D.S.'],
};

/** Specialty wordings (text ↔ variant). */
export const SPECIALTIES: Array<[string, string]> = pairs(
  'Cardiovascular Disease=Cardiology; Family Medicine=Family Practice; ' +
    'Internal Medicine=General Internal Medicine; Obstetrics & Gynecology=OB/GYN; Orthopaedic Surgery=Orthopedics; ' +
    'Pediatrics=Pediatric Medicine; Psychiatry & Neurology=Psychiatry; Dermatology=Dermatology, General; ' +
    'Emergency Medicine=Emergency Med',
);

/** Facility name patterns: {place} is a saint, town or surname. */
export const FACILITY_TYPES = (
  'Hospital; Medical Center; Regional Medical Center; Memorial Hospital; Community Hospital; Health Center; ' +
  'Clinic; Surgery Center'
).split('; ');
export const SAINTS = (
  'Saint Joseph; Saint Mary; Saint Luke; Saint Francis; Saint Anthony; Saint Vincent; Mount Sinai; Mercy; ' +
  'Good Samaritan; Providence'
).split('; ');
/** Organization brand trades and chain brands (chain branches carry a store number). */
export const ORG_TRADES = (
  'Pharmacy; Dental Associates; Physical Therapy Services; Imaging Center; Home Health Services; ' +
  'Laboratory Services; Eye Care; Urgent Care'
).split('; ');

/** Placeholder values seen in real registration data (linkage/README.md, "Data"). */
export const PLACEHOLDER_SSNS = ['000-00-0000', '999-99-9999', '123-45-6789'];
export const PLACEHOLDER_DOBS = ['1900-01-01'];
