// The adapter's name, sent as the Server header on every response (TFB
// rules: every response has Server).

/** Value of the Server header. */
export const SERVER_NAME = 'react-router';
