/** Control characters (NUL, ESC, ...) but not tab and newline: never part of a memory file. */
export const CONTROL_CHAR = /[\u0000-\u0008\u000b-\u001f\u007f-\u009f]/;
