/** A truth set or clustering key that cannot be read: the message names the file, the line and what is wrong. */
export class TruthSetError extends Error {}
