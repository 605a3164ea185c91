/**
 * What an `input-answered` journal record holds (issue 36): an answer to an input node, from a
 * person (through the store's external append) or the input's timeout outcome (by the owner).
 */
export interface InputAnswer {
  /** `<taskId>#input`. */
  interruptId: string;
  value: unknown;
  /** Who answered (a user id, `user`), or `timeout`. */
  answeredBy: string;
  /** Set when the value is the input's declared timeout outcome. */
  timedOut?: true;
}
