/* kmscon-felis/session-paste.c: see session-paste.h. */
#include "kmscon-felis/session-paste.h"

#include <errno.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>
#include <termios.h>
#include <unistd.h>

#include "kmscon-felis/session.h"

size_t kf_session_paste_filter(uint8_t *out, const uint8_t *in, size_t len)
{
	static const uint8_t end[6] = {0x1b, '[', '2', '0', '1', '~'};
	/* out never holds a mark: a byte can only complete one that ends with it, and taking those six bytes
	 * out leaves a prefix of what out was before, which held none (a single pass of memmem over the input
	 * left "ESC[20" + "1~" around a removed mark, and the child saw the mark they form) */
	size_t n = 0;
	for (size_t i = 0; i < len; i++) {
		out[n++] = in[i];
		if (in[i] == '~' && n >= sizeof(end) && !memcmp(out + n - sizeof(end), end, sizeof(end)))
			n -= sizeof(end);
	}
	return n;
}

size_t kf_session_paste_newlines(uint8_t *out, const uint8_t *in, size_t len)
{
	/* Enter sends "\r", and so does the kernel's console when it pastes a selection (its selection buffer
	 * ends lines with '\r'), as do xterm, VTE, alacritty and wezterm without brackets: a child in cooked mode
	 * gets its newline back from ICRNL, and one in raw mode (an editor) sees Enter, not ^J, which nano takes
	 * for Justify. A child that asked for brackets knows a paste and gets the text as it is. */
	size_t n = 0;
	uint8_t prev = 0; /* (in[i - 1] may be overwritten when out is in) */
	for (size_t i = 0; i < len; i++) {
		const uint8_t c = in[i];
		if (!(c == '\n' && prev == '\r'))
			out[n++] = c == '\n' ? '\r' : c;
		prev = c;
	}
	return n;
}

/* Marks in bad[] the bytes a paste sends as spaces, as xterm does with its default disallowedPasteControls
 * (BS,DEL,ENQ,EOT,ESC,NUL,STTY; xterm's manual): a pasted ESC would begin a key's sequence (or, inside brackets,
 * end the paste), a ^C interrupt the program and a BS or DEL erase what was typed, as if the user had typed them.
 * "STTY" is the line discipline's special characters, read from the terminal now as xterm reads them (a program
 * may have moved them). TAB, LF and CR always pass: they are the text's own layout. */
static void paste_disallowed(int tty_fd, bool bad[128])
{
	static const uint8_t fixed[] = {0x00, 0x04, 0x05, 0x08, 0x1b, 0x7f};
	static const int special[] = {VINTR, VQUIT,    VERASE,   VKILL,   VEOF,  VSTART,
				      VSTOP, VSUSP,    VREPRINT, VDISCARD, VWERASE, VLNEXT};
	struct termios t;

	memset(bad, 0, 128 * sizeof(bad[0]));
	for (size_t i = 0; i < sizeof(fixed); i++)
		bad[fixed[i]] = true;
	if (tcgetattr(tty_fd, &t) == 0) {
		for (size_t i = 0; i < sizeof(special) / sizeof(special[0]); i++) {
			const cc_t c = t.c_cc[special[i]];
			/* only controls, as xterm's: a printable special character (stty intr q) is text */
			if (c != _POSIX_VDISABLE && (c < 0x20 || c == 0x7f))
				bad[c] = true;
		}
	}
	bad['\t'] = bad['\n'] = bad['\r'] = false;
}

/* The length of the maximal subpart at s (n > 0 bytes left, s[0] >= 0x80): the longest start of a well-formed UTF-8
 * character there (Unicode's table 3-7: no overlong form, no surrogate, nothing above U+10FFFF), at least one byte.
 * *whole says whether it is the whole character. */
static size_t utf8_subpart(const uint8_t *s, size_t n, bool *whole)
{
	const uint8_t c = s[0];
	*whole = false;
	if (c < 0xc2 || c > 0xf4)
		return 1;
	const size_t len = c < 0xe0 ? 2 : c < 0xf0 ? 3 : 4;
	const uint8_t lo = c == 0xe0 ? 0xa0 : c == 0xf0 ? 0x90 : 0x80, hi = c == 0xed ? 0x9f : c == 0xf4 ? 0x8f : 0xbf;
	if (n < 2 || s[1] < lo || s[1] > hi)
		return 1;
	size_t k = 2;
	while (k < len && k < n && (s[k] & 0xc0) == 0x80)
		k++;
	*whole = k == len;
	return k;
}

/* The paste's text with its controls made spaces (bad[], C1) and every maximal subpart of no UTF-8 character made
 * one U+FFFD, as vt/parser.c decodes the child's output: bytes of no character would reach the child as they came,
 * and its decoder (readline's, an editor's) could take them and a following byte together. Written to out unless
 * out is NULL; returns the length (at most 3 * len: a lone byte becomes three). */
static size_t paste_text(const uint8_t *in, size_t len, const bool bad[128], uint8_t *out)
{
	static const uint8_t fffd[3] = {0xef, 0xbf, 0xbd};
	size_t m = 0;
	for (size_t i = 0; i < len;) {
		const uint8_t c = in[i];
		if (c < 0x80) {
			if (out)
				out[m] = bad[c] ? ' ' : c;
			m++;
			i++;
			continue;
		}
		bool whole;
		const size_t k = utf8_subpart(in + i, len - i, &whole);
		const uint8_t *put = in + i;
		size_t put_len = k;
		if ((whole && c == 0xc2 && in[i + 1] < 0xa0) || (k == 1 && c < 0xa0)) {
			/* a C1 control, written in UTF-8 (U+0080..U+009F) or raw (0x9b is the 8-bit CSI: "0x9b 201~"
			 * ends a paste for a child that reads 8-bit controls) */
			put = (const uint8_t *)" ";
			put_len = 1;
		} else if (!whole) {
			put = fffd;
			put_len = sizeof(fffd);
		}
		if (out)
			memcpy(out + m, put, put_len);
		m += put_len;
		i += k;
	}
	return m;
}

int kf_paste_build(int tty_fd, bool bracketed, const void *data, size_t len, uint8_t **out, size_t *out_len)
{
	static const char start[] = "\033[200~", end[] = "\033[201~";
	const size_t extra = bracketed ? KF_PASTE_MARKS_LEN : 0;
	bool bad[128];
	paste_disallowed(tty_fd, bad);
	const size_t m = paste_text(data, len, bad, NULL);
	if (m > SIZE_MAX - extra - 1)
		return -ENOMEM;
	/* marks and text in one piece: a paste is queued all or nothing */
	uint8_t *buf = malloc(m + extra + 1), *text = buf + extra / 2;
	if (!buf)
		return -ENOMEM;
	paste_text(data, len, bad, text);
	size_t n;
	if (!extra) {
		n = kf_session_paste_newlines(text, text, m);
	} else {
		/* Inside brackets, an end mark in the pasted text would let the rest run as typed commands. Its ESC
		 * is a space by now; the filter stays, so that no list of controls can ever let one through. */
		memcpy(buf, start, sizeof(start) - 1);
		n = kf_session_paste_filter(text, text, m);
		memcpy(text + n, end, sizeof(end) - 1);
		n += extra;
	}
	*out = buf;
	*out_len = n;
	return 0;
}
