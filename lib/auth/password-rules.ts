// Password rules shared by the server and the forms (no hashing here, so browsers may import it).
export const PASSWORD_MIN_LENGTH = 12;
