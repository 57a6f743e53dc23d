/**
 * What any suggestion for the user must respect, whatever it is about: an allergy, an
 * intolerance, a diet ("用户对花生过敏", "The user is allergic to shellfish", "用户是素食者", "The
 * user is lactose intolerant"). A request for a restaurant sits far from "allergic to shellfish"
 * by meaning and shares no word with it, yet the assistant must not suggest seafood: such
 * memories come into the block for every request for suggestions (context/build-context.ts).
 */
const CONSTRAINT =
  /过敏|不耐受|素食|吃素|忌口|清真|不能吃|吃不了|不能喝|不吃(?:肉|猪肉|牛肉|羊肉|海鲜|鱼|辣|鸡蛋|奶|乳制品)|allerg|intoleran|vegetarian|vegan|pescatarian|halal|kosher|celiac|coeliac|gluten[- ]free|dairy[- ]free|(?:can't|cannot|can not|doesn't|does not|don't|do not|never) (?:eat|drink|have)\b/iu;
/**
 * A doctor's (or dietitian's) order about food or drink: "医生让用户少吃辣", "医生说用户不要喝酒", "The
 * user's doctor told them to cut down on salt" / "to avoid sugar". Only with the doctor named:
 * "少吃点零食" or "I avoid crowds" restrict nothing a suggestion must respect.
 */
const ORDERED = /(?:医生|大夫|营养师)[^。；;]{0,12}(?:少|别|不要|不能|不宜|忌|戒|控制)(?:吃|喝|碰|酒|烟|糖|盐|辣|油)|\b(?:doctor|dietitian|dietician|nutritionist|physician)\b[^.;]{0,40}\b(?:cut (?:down|back) on|limit|avoid|stay away from|not (?:to )?(?:eat|drink|have)|no more)\b/iu;

export function statesDietaryConstraint(text: string): boolean {
  return CONSTRAINT.test(text) || ORDERED.test(text);
}


/** The words such memories are found by, as one keyword query (BM25 over the user's memories). */
export const DIETARY_CONSTRAINT_QUERY = '过敏 不耐受 素食 吃素 忌口 清真 不能吃 吃不了 不吃 少吃 医生 allergic allergy allergies intolerant intolerance vegetarian vegan pescatarian halal kosher celiac gluten dairy eat drink doctor';
