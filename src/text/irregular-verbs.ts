/**
 * English irregular verbs: each past tense and past participle to its base form, so "went" and
 * "gone" meet "go" in keyword search (Porter stemming handles the regular "-ed", not these).
 * Forms that are also common other words with another meaning ("left", "found"? kept: the verb
 * sense dominates in conversation; "saw" the tool and "lay" are left out) are chosen by hand.
 */
const VERBS: ReadonlyArray<readonly [base: string, ...forms: string[]]> = [
  ['arise', 'arose', 'arisen'], ['awake', 'awoke', 'awoken'], ['be', 'was', 'were', 'been'], ['bear', 'bore', 'born', 'borne'],
  ['beat', 'beaten'], ['become', 'became'], ['begin', 'began', 'begun'], ['bend', 'bent'], ['bet', 'betted'],
  ['bind', 'bound'], ['bite', 'bit', 'bitten'], ['bleed', 'bled'], ['blow', 'blew', 'blown'], ['break', 'broke', 'broken'],
  ['breed', 'bred'], ['bring', 'brought'], ['build', 'built'], ['burn', 'burnt'], ['buy', 'bought'], ['catch', 'caught'],
  ['choose', 'chose', 'chosen'], ['cling', 'clung'], ['come', 'came'], ['creep', 'crept'], ['deal', 'dealt'], ['dig', 'dug'],
  ['do', 'did', 'done'], ['draw', 'drew', 'drawn'], ['dream', 'dreamt'], ['drink', 'drank', 'drunk'], ['drive', 'drove', 'driven'],
  ['eat', 'ate', 'eaten'], ['fall', 'fell', 'fallen'], ['feed', 'fed'], ['feel', 'felt'], ['fight', 'fought'], ['find', 'found'],
  ['flee', 'fled'], ['fly', 'flew', 'flown'], ['forbid', 'forbade', 'forbidden'], ['forget', 'forgot', 'forgotten'],
  ['forgive', 'forgave', 'forgiven'], ['freeze', 'froze', 'frozen'], ['get', 'got', 'gotten'], ['give', 'gave', 'given'],
  ['go', 'went', 'gone'], ['grind', 'ground'], ['grow', 'grew', 'grown'], ['hang', 'hung'], ['have', 'had', 'has'], ['hear', 'heard'],
  ['hide', 'hid', 'hidden'], ['hold', 'held'], ['keep', 'kept'], ['kneel', 'knelt'], ['know', 'knew', 'known'],
  ['lead', 'led'], ['lean', 'leant'], ['leap', 'leapt'], ['learn', 'learnt'], ['leave', 'left'], ['lend', 'lent'],
  ['lie', 'lain'], ['light', 'lit'], ['lose', 'lost'], ['make', 'made'], ['mean', 'meant'], ['meet', 'met'],
  ['overcome', 'overcame'], ['pay', 'paid'], ['prove', 'proven'], ['ride', 'rode', 'ridden'], ['ring', 'rang', 'rung'],
  ['rise', 'rose', 'risen'], ['run', 'ran'], ['say', 'said'], ['see', 'saw', 'seen'], ['seek', 'sought'], ['sell', 'sold'],
  ['send', 'sent'], ['sew', 'sewn'], ['shake', 'shook', 'shaken'], ['shine', 'shone'], ['shoot', 'shot'], ['show', 'shown'],
  ['shrink', 'shrank', 'shrunk'], ['sing', 'sang', 'sung'], ['sink', 'sank', 'sunk'], ['sit', 'sat'], ['sleep', 'slept'],
  ['slide', 'slid'], ['speak', 'spoke', 'spoken'], ['speed', 'sped'], ['spend', 'spent'], ['spin', 'spun'], ['spit', 'spat'],
  ['spring', 'sprang', 'sprung'], ['stand', 'stood'], ['steal', 'stole', 'stolen'], ['stick', 'stuck'], ['sting', 'stung'],
  ['stink', 'stank', 'stunk'], ['strike', 'struck'], ['strive', 'strove', 'striven'], ['swear', 'swore', 'sworn'],
  ['sweep', 'swept'], ['swim', 'swam', 'swum'], ['swing', 'swung'], ['take', 'took', 'taken'], ['teach', 'taught'],
  ['tear', 'tore', 'torn'], ['tell', 'told'], ['think', 'thought'], ['throw', 'threw', 'thrown'], ['understand', 'understood'],
  ['wake', 'woke', 'woken'], ['wear', 'wore', 'worn'], ['weave', 'wove', 'woven'], ['weep', 'wept'], ['win', 'won'],
  ['wind', 'wound'], ['write', 'wrote', 'written'], ['undertake', 'undertook', 'undertaken'], ['withdraw', 'withdrew', 'withdrawn'],
];

export const IRREGULAR_VERB_BASE: ReadonlyMap<string, string> = new Map(VERBS.flatMap(([base, ...forms]) => forms.map((f) => [f, base] as const)));
