/* vt/keys.c: placeholder until its issue lands. */
typedef int vt_placeholder_keys;
