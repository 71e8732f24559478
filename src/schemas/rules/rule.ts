// What a cross-field rule reports: the issues of a value, each with its path and message.

/** One issue a rule finds: where (relative to the checked value), why, and the service's error code. */
export interface RuleIssue {
  path: (string | number)[];
  message: string;
  params?: { serviceCode: string };
}

/** A cross-field rule: a pure function from a value that passed its fields' checks to its issues. */
export type Rule<T> = (value: T) => RuleIssue[];
