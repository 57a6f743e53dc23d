import { thirdPerson } from './candidate.js';

/**
 * The words the English pattern tables share (patterns-en*.ts): how a row is anchored, what is a
 * name, a relative, a pet, a day of the year.
 */

export const END = '[.!~]*$';
export const NAME = "([A-Z][\\p{L}'-]*(?: [A-Z][\\p{L}'-]*){0,2}|\\p{Script=Han}{1,4})";
export const IM = "I(?:'m| am|m)";
/** Words after "my name is" in lower case that are no name ("my name is not important"). */
export const NOT_LOWER_NAMES = /^(?:not|on|in|at|the|a|an|too|so|very|really|still|also|just|actually|kind|hard|long|weird|spelled|pronounced|written|unusual|common|private|secret|irrelevant|important|fine|what|mine|yours)\b/;
export const REL =
  '(wife|husband|partner|boyfriend|girlfriend|fianc[ée]e?|son|daughter|kids|children|mom|mum|mother|dad|father|brother|sister|grandma|grandmother|grandpa|grandfather)';
export const PET = '(cat|dog|puppy|kitten|rabbit|bunny|hamster|parrot|bird|fish|turtle|guinea pig|golden retriever|retriever|labrador|poodle|corgi|husky|beagle|terrier)';
/** Not a thing liked or disliked: the listener ("love u", "like your answer"), a pointer, or a moment ("hate when that happens"). */
export const NOT_OBJECTS = /^(?:you|u|ya|your|ur|yours|it|this|that|them|him|her|these|those|when|whenever)\b/i;
export const MONTH = '(?:jan(?:uary)?|feb(?:ruary)?|mar(?:ch)?|apr(?:il)?|may|june?|july?|aug(?:ust)?|sept?(?:ember)?|oct(?:ober)?|nov(?:ember)?|dec(?:ember)?)';
/** A day of the year: "May 3rd", "3 May", "the 3rd of May", "May 3, 1990". */
export const BIRTH_DATE = `(${MONTH}\\.? \\d{1,2}(?:st|nd|rd|th)?(?:,? \\d{4})?|(?:the )?\\d{1,2}(?:st|nd|rd|th)? (?:of )?${MONTH}(?:,? \\d{4})?)`;
/** Capitalized words after "I'm" that are no name: states, peoples, faiths, politics. */
export const NOT_NAMES_EN = new RegExp(
  `^(?:${[
    'Fine', 'Good', 'Great', 'Okay', 'Ok', 'Sorry', 'Back', 'Here', 'There', 'Home', 'Ready', 'Done', 'Sure', 'Glad', 'Happy', 'Sad', 'Tired', 'Busy', 'Free',
    'In', 'Out', 'Not', 'So', 'Just', 'Also', 'Still', 'The', 'Very', 'Really', 'Totally', 'Alright', 'All', 'Well', 'Sick', 'Late', 'Early', 'Excited',
    'Hungry', 'Bored', 'Cool', 'Awesome', 'Afraid', 'Scared', 'Lost', 'Stuck', 'Single', 'Married', 'Pregnant', 'Retired', 'Vegan', 'Vegetarian', 'Off',
    'On', 'Up', 'Down', 'Over', 'New', 'Old', 'Always', 'Never', 'Sometimes', 'Almost', 'Kinda', 'Pretty', 'Too', 'Bi', 'Gay', 'Straight', 'Trans',
    'American', 'Canadian', 'British', 'English', 'Chinese', 'Japanese', 'Korean', 'French', 'German', 'Italian', 'Spanish', 'Mexican', 'Indian',
    'Australian', 'Russian', 'Brazilian', 'Irish', 'Scottish', 'Welsh', 'Dutch', 'Swedish', 'Vietnamese', 'Thai', 'Filipino', 'Asian', 'European',
    'African', 'Latino', 'Latina', 'Hispanic', 'Christian', 'Muslim', 'Jewish', 'Buddhist', 'Catholic', 'Hindu', 'Atheist', 'Republican', 'Democrat',
    'Libertarian', 'Conservative', 'Liberal', 'Introverted', 'Extroverted', 'Introvert', 'Extrovert', 'Human',
  ].join('|')})$`,
);

export const re = (source: string, flags = 'iu'): RegExp => new RegExp(`^${source}${END}`, flags);
export const tail = (text: string | undefined): string => thirdPerson(text ?? '', 'en');
