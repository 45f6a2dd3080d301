/** Errors of the reference's settings: one line naming the setting or variant, for the CLIs. */

/** A reference setting (variants, latency) that cannot be used; the message is one line naming it. */
export class ReferenceSettingError extends Error {
  constructor(message: string) {
    super(message);
    this.name = 'ReferenceSettingError';
  }
}

/** An unknown variant, a bad value, or variants that cannot be on together. */
export class VariantError extends ReferenceSettingError {
  constructor(message: string) {
    super(message);
    this.name = 'VariantError';
  }
}
