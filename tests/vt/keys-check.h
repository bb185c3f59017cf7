/* tests/vt/keys-check.h: the checks and key builders of the key encoder's tests (test-keys.c,
 * test-keys-kitty.c): each file counts its own checks and failures and prints them. */
#ifndef TESTS_VT_KEYS_CHECK_H
#define TESTS_VT_KEYS_CHECK_H

#include <stdio.h>
#include <string.h>

#include "vt/vt.h"

static int failures;
static int checks;

static inline void show(const char *label, const uint8_t *s, size_t n)
{
	fprintf(stderr, "  %s: \"", label);
	for (size_t i = 0; i < n; i++) {
		if (s[i] == 0x1b)
			fprintf(stderr, "\\e");
		else if (s[i] < 0x20 || s[i] >= 0x7f)
			fprintf(stderr, "\\x%02x", s[i]);
		else
			fputc(s[i], stderr);
	}
	fprintf(stderr, "\" (%zu bytes)\n", n);
}

static inline void check_n(const char *name, const struct vt_key_event *ev, const struct vt_key_modes *m,
		    const char *want, size_t want_len)
{
	uint8_t out[64];
	size_t n;

	memset(out, 0xaa, sizeof(out));
	n = vt_key_encode(ev, m, out, sizeof(out));
	checks++;
	if (n != want_len || memcmp(out, want, n) != 0) {
		failures++;
		fprintf(stderr, "FAIL %s\n", name);
		show("want", (const uint8_t *)want, want_len);
		show("got ", out, n);
	}
}

static inline void check(const char *name, const struct vt_key_event *ev, const struct vt_key_modes *m,
		  const char *want)
{
	check_n(name, ev, m, want, strlen(want));
}

static const struct vt_key_modes legacy = {.alt_sends_escape = true};

static inline struct vt_key_event key(enum vt_keysym k, unsigned mods)
{
	return (struct vt_key_event){.key = k, .action = VT_KEY_PRESS, .mods = mods};
}

/* A keypad key that types t (a digit under NumLock, an operator). */
static inline struct vt_key_event kp(enum vt_keysym k, uint32_t t, unsigned mods)
{
	return (struct vt_key_event){.key = k, .action = VT_KEY_PRESS, .mods = mods, .text = t};
}

static inline struct vt_key_event text(uint32_t t, uint32_t unshifted, unsigned mods)
{
	return (struct vt_key_event){.action = VT_KEY_PRESS, .mods = mods, .text = t, .unshifted = unshifted};
}

static inline struct vt_key_modes kitty(unsigned flags)
{
	struct vt_key_modes m = legacy;
	m.kitty_flags = (uint8_t)flags;
	return m;
}

#endif
