/* tests/fuzz/fuzz-input.c: libFuzzer target over what the user's input becomes in the child's input: the key
 * encoder (vt/keys.c) under every terminal mode, the mouse report encoder (kmscon-felis/mouse.c) in every mode
 * and encoding at any coordinate, and a paste's filtering (kmscon-felis/session-paste.c) with the line
 * discipline's special characters set from the input.
 *
 * Why: the modes come from the child (DECCKM, DECKPAM, modifyOtherKeys, the kitty flags, mouse modes and
 * encodings), a paste's text from anyone's clipboard (OSC 52 included), and each encoder writes into a fixed
 * buffer; what comes out must be what the child may read: a paste never ends its own brackets nor carries a
 * control that acts as a key.
 *
 * Input: records, each a kind byte (value % 3: 0 a key, 1 a mouse report, 2 a paste) and its fields read from
 * the bytes after it (missing bytes are 0). Checked besides the sanitizers:
 *   keys:  the bytes fit in 64 (vt.h: "64 always suffices"); a buffer of exactly n bytes gets at most n (an
 *          exact-size heap block, so a write past it is an AddressSanitizer report);
 *   mouse: the bytes fit in 32 (mouse.h); below 32 nothing is written; SGR/urxvt reports parse back to the
 *          numbers sent; a legacy report is 6 bytes (UTF-8: up to 9);
 *   paste: at most 3 * len + 12 bytes (a byte of no character is U+FFFD); inside the marks no end mark, no ESC,
 *          NUL, EOT, ENQ, BS, DEL, no special character of the terminal, no C1 control, nothing but well-formed
 *          UTF-8; without brackets no LF either. */
#include <fcntl.h>
#include <limits.h>
#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <termios.h>
#include <unistd.h>

#include "grid/grid.h"
#include "kmscon-felis/mouse.h"
#include "kmscon-felis/session-paste.h"
#include "vt/vt.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

struct rd {
	const uint8_t *p;
	size_t n;
};

static uint8_t u8(struct rd *r)
{
	if (!r->n)
		return 0;
	r->n--;
	return *r->p++;
}

static uint32_t u32(struct rd *r)
{
	uint32_t v = 0;
	for (int i = 0; i < 4; i++)
		v = v << 8 | u8(r);
	return v;
}

/* A coordinate: mostly small, sometimes near the encodings' limits, sometimes any int. */
static int coord(struct rd *r)
{
	const uint8_t k = u8(r);
	const uint32_t v = u32(r);
	switch (k % 4) {
	case 0:
		return (int)(v % 300);
	case 1:
		return 2000 + (int)(v % 64);
	case 2:
		return INT_MAX - (int)(v % 4);
	default:
		return (int)v;
	}
}

static void fuzz_key(struct rd *r)
{
	static const enum vt_key_action actions[] = {VT_KEY_PRESS, VT_KEY_REPEAT, VT_KEY_RELEASE};
	struct vt_key_event ev = {0};
	struct vt_key_modes m = {0};
	const uint8_t flags = u8(r);

	ev.key = (enum vt_keysym)(u8(r) % VT_KEY_COUNT_);
	ev.action = actions[u8(r) % 3];
	ev.mods = u8(r);
	ev.text = u32(r);
	ev.unshifted = u32(r);
	ev.base = u32(r);
	m.cursor_keys_app = flags & 1;
	m.keypad_app = flags & 2;
	m.newline_mode = flags & 4;
	m.backspace_sends_bs = flags & 8;
	m.alt_sends_escape = flags & 16;
	/* grid/ keeps these in range (CSI > 4 ; N m with N 0-2, kitty's flags 5 bits) */
	m.modify_other_keys = (uint8_t)((flags >> 5) % 3);
	m.kitty_flags = u8(r) & 31;

	uint8_t big[256];
	const size_t n = vt_key_encode(&ev, &m, big, sizeof(big));
	if (n > 64) {
		fprintf(stderr, "key encoding of %zu bytes, more than 64\n", n);
		abort();
	}
	uint8_t small[64];
	if (vt_key_encode(&ev, &m, small, sizeof(small)) != n || memcmp(small, big, n)) {
		fprintf(stderr, "key encoding differs with a 64-byte buffer\n");
		abort();
	}
	/* a short buffer: never written past */
	const size_t cap = u8(r) % 65;
	uint8_t *exact = malloc(cap ? cap : 1);
	if (!exact)
		return;
	if (vt_key_encode(&ev, &m, exact, cap) > cap) {
		fprintf(stderr, "key encoding longer than its buffer\n");
		abort();
	}
	free(exact);
}

/* SGR / urxvt: parses "ESC [ [<] b ; x ; y (M|m)" back */
static bool parse_report(const uint8_t *s, size_t n, bool sgr, long long v[3], char *fin)
{
	char buf[64];
	if (n >= sizeof(buf))
		return false;
	memcpy(buf, s, n);
	buf[n] = 0;
	int used = 0;
	if (sscanf(buf, sgr ? "\033[<%lld;%lld;%lld%c%n" : "\033[%lld;%lld;%lld%c%n", &v[0], &v[1], &v[2], fin,
		   &used) != 4)
		return false;
	return (size_t)used == n;
}

static void fuzz_mouse(struct rd *r)
{
	static const enum grid_mouse_mode modes[] = {GRID_MOUSE_NONE, GRID_MOUSE_X10, GRID_MOUSE_NORMAL,
						    GRID_MOUSE_BUTTON, GRID_MOUSE_ANY};
	static const enum grid_mouse_encoding encs[] = {GRID_MOUSE_ENC_DEFAULT, GRID_MOUSE_ENC_UTF8,
						       GRID_MOUSE_ENC_SGR, GRID_MOUSE_ENC_URXVT,
						       GRID_MOUSE_ENC_SGR_PIXELS};
	struct kf_mouse_report rep = {0};
	const enum grid_mouse_mode mode = modes[u8(r) % 5];
	const enum grid_mouse_encoding enc = encs[u8(r) % 5];

	const uint8_t a = u8(r);
	rep.action = (enum kf_mouse_action)(a % 3);
	rep.any_button_held = a & 0x80;
	rep.button = u8(r) % 12; /* mouse.h: 0..11 */
	rep.mods = u8(r);
	rep.col = coord(r);
	rep.row = coord(r);
	rep.x = coord(r);
	rep.y = coord(r);

	uint8_t big[256];
	const size_t n = kf_mouse_encode(mode, enc, &rep, big, sizeof(big));
	if (n > 32) {
		fprintf(stderr, "mouse report of %zu bytes, more than 32\n", n);
		abort();
	}
	uint8_t small[32];
	if (kf_mouse_encode(mode, enc, &rep, small, sizeof(small)) != n || memcmp(small, big, n)) {
		fprintf(stderr, "mouse report differs with a 32-byte buffer\n");
		abort();
	}
	const size_t cap = u8(r) % 32;
	uint8_t *exact = malloc(cap ? cap : 1);
	if (!exact)
		return;
	if (kf_mouse_encode(mode, enc, &rep, exact, cap) != 0) {
		fprintf(stderr, "mouse report into %zu bytes (mouse.h: needs 32)\n", cap);
		abort();
	}
	free(exact);
	if (!n)
		return;
	if (enc == GRID_MOUSE_ENC_SGR || enc == GRID_MOUSE_ENC_SGR_PIXELS || enc == GRID_MOUSE_ENC_URXVT) {
		const bool sgr = enc != GRID_MOUSE_ENC_URXVT;
		long long v[3];
		char fin;
		const long long want_x = sgr && enc == GRID_MOUSE_ENC_SGR_PIXELS ? (long long)rep.x + 1
										  : (long long)rep.col + 1;
		const long long want_y = sgr && enc == GRID_MOUSE_ENC_SGR_PIXELS ? (long long)rep.y + 1
										  : (long long)rep.row + 1;
		if (!parse_report(big, n, sgr, v, &fin) || v[1] != want_x || v[2] != want_y || v[0] < 0) {
			fprintf(stderr, "mouse report '%.*s' is not the position %lld,%lld\n", (int)n - 1, big + 1,
				want_x, want_y);
			abort();
		}
	} else if (n < 6 || n > 9 || memcmp(big, "\033[M", 3)) {
		fprintf(stderr, "legacy mouse report of %zu bytes\n", n);
		abort();
	}
}

static int pty = -1;

/* The length of a well-formed UTF-8 character at s (Unicode's table 3-7), 0 for none: written apart from
 * session-paste.c's so that a slip there is not checked with itself. */
static size_t wf_len(const uint8_t *s, size_t n)
{
	uint32_t cp;
	size_t len;
	if (s[0] >= 0xc2 && s[0] <= 0xdf) {
		len = 2;
		cp = s[0] & 0x1f;
	} else if (s[0] >= 0xe0 && s[0] <= 0xef) {
		len = 3;
		cp = s[0] & 0x0f;
	} else if (s[0] >= 0xf0 && s[0] <= 0xf4) {
		len = 4;
		cp = s[0] & 0x07;
	} else {
		return 0;
	}
	if (n < len)
		return 0;
	for (size_t i = 1; i < len; i++) {
		if ((s[i] & 0xc0) != 0x80)
			return 0;
		cp = cp << 6 | (s[i] & 0x3f);
	}
	if ((len == 3 && cp < 0x800) || (len == 4 && cp < 0x10000) || cp > 0x10ffff || (cp >= 0xd800 && cp < 0xe000))
		return 0;
	return len;
}

static void fuzz_paste(struct rd *r)
{
	static const int special[] = {VINTR, VQUIT, VERASE, VKILL, VEOF, VSTART,
				      VSTOP, VSUSP, VREPRINT, VDISCARD, VWERASE, VLNEXT};
	const uint8_t flags = u8(r);
	const bool bracketed = flags & 1;
	bool bad[256] = {0};

	bad[0x00] = bad[0x04] = bad[0x05] = bad[0x08] = bad[0x1b] = bad[0x7f] = true;
	if (pty < 0) {
		pty = posix_openpt(O_RDWR | O_NOCTTY);
		if (pty >= 0 && (grantpt(pty) || unlockpt(pty))) {
			close(pty);
			pty = -1;
		}
	}
	const int fd = flags & 2 ? pty : -1;
	struct termios t;
	if (fd >= 0 && tcgetattr(fd, &t) == 0) {
		for (size_t i = 0; i < sizeof(special) / sizeof(special[0]); i++)
			t.c_cc[special[i]] = u8(r);
		if (tcsetattr(fd, TCSANOW, &t) == 0 && tcgetattr(fd, &t) == 0) {
			for (size_t i = 0; i < sizeof(special) / sizeof(special[0]); i++) {
				const cc_t c = t.c_cc[special[i]];
				if (c != _POSIX_VDISABLE && (c < 0x20 || c == 0x7f))
					bad[c] = true;
			}
		}
	}
	bad['\t'] = bad['\n'] = bad['\r'] = false;
	size_t len = (size_t)u8(r) << 8 | u8(r);
	if (len > r->n)
		len = r->n;
	/* an exact copy: a read past the text is an AddressSanitizer report */
	uint8_t *text = malloc(len ? len : 1);
	if (!text)
		return;
	memcpy(text, r->p, len);
	r->p += len;
	r->n -= len;

	uint8_t *out;
	size_t n;
	if (kf_paste_build(fd, bracketed, text, len, &out, &n) != 0) {
		free(text);
		return;
	}
	free(text);
	const size_t extra = bracketed ? KF_PASTE_MARKS_LEN : 0;
	if (n > 3 * len + extra) {
		fprintf(stderr, "paste of %zu bytes sends %zu\n", len, n);
		abort();
	}
	const uint8_t *s = out;
	size_t m = n;
	if (bracketed) {
		if (n < extra || memcmp(out, "\033[200~", 6) || memcmp(out + n - 6, "\033[201~", 6)) {
			fprintf(stderr, "bracketed paste without its marks\n");
			abort();
		}
		s += 6;
		m -= extra;
	}
	for (size_t i = 0; i < m;) {
		const size_t k = s[i] >= 0x80 ? wf_len(s + i, m - i) : 0;
		const uint32_t c1 = k == 2 ? (uint32_t)(s[i] & 0x1f) << 6 | (s[i + 1] & 0x3f) : 0;
		if ((s[i] < 0x80 && bad[s[i]]) || (!k && s[i] >= 0x80) || (c1 >= 0x80 && c1 < 0xa0) ||
		    (!bracketed && s[i] == '\n')) {
			fprintf(stderr, "paste sends 0x%02x at %zu of %zu (%s)\n", s[i], i, m,
				bracketed ? "bracketed" : "plain");
			abort();
		}
		i += k ? k : 1;
	}
	free(out);
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	struct rd r = {data, size};

	while (r.n) {
		switch (u8(&r) % 3) {
		case 0:
			fuzz_key(&r);
			break;
		case 1:
			fuzz_mouse(&r);
			break;
		default:
			fuzz_paste(&r);
			break;
		}
	}
	return 0;
}
