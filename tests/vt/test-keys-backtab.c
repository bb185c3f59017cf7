/* tests/vt/test-keys-backtab.c: Shift+Tab with Alt (and Ctrl) against xterm 379, as tests/tools/xterm-keys.py
 * records it (`--case '- alt+shift+Tab'`, metaSendsEscape on; the same with altSendsEscape, DECCKM, DECBKM,
 * modifyOtherKeys 1): the back-tab CSI Z alone. An ESC before it (what we sent before) is M-ESC
 * followed by "[Z" for readline: bash completed and typed "[Z" into the command line. Expected strings are
 * written out from xterm's bytes, not computed by the code under test. */
#include <stdio.h>
#include <string.h>

#include "vt/vt.h"

static int failures;

static void check(const char *name, unsigned mods, const struct vt_key_modes *m, const char *want)
{
	struct vt_key_event ev = {.key = VT_KEY_TAB, .action = VT_KEY_PRESS, .mods = mods};
	uint8_t out[64];
	size_t n = vt_key_encode(&ev, m, out, sizeof(out));

	if (n != strlen(want) || memcmp(out, want, n)) {
		failures++;
		fprintf(stderr, "FAIL %s: got \"", name);
		for (size_t i = 0; i < n; i++)
			fprintf(stderr, out[i] == 0x1b ? "\\e" : "%c", out[i]);
		fprintf(stderr, "\"\n");
	}
}

int main(void)
{
	const struct vt_key_modes legacy = {.alt_sends_escape = true};
	struct vt_key_modes m = legacy;

	check("Shift+Alt+Tab", VT_MOD_SHIFT | VT_MOD_ALT, &m, "\033[Z");
	check("Ctrl+Shift+Alt+Tab", VT_MOD_CTRL | VT_MOD_SHIFT | VT_MOD_ALT, &m, "\033[Z");
	/* Alt+Tab keeps its ESC, as in xterm (readline's M-TAB) */
	check("Alt+Tab", VT_MOD_ALT, &m, "\033\t");
	check("Shift+Tab", VT_MOD_SHIFT, &m, "\033[Z");
	m.cursor_keys_app = true;
	check("DECCKM Shift+Alt+Tab", VT_MOD_SHIFT | VT_MOD_ALT, &m, "\033[Z");
	m = legacy;
	m.backspace_sends_bs = true;
	check("DECBKM Shift+Alt+Tab", VT_MOD_SHIFT | VT_MOD_ALT, &m, "\033[Z");
	m = legacy;
	m.alt_sends_escape = false;
	check("Shift+Alt+Tab, metaSendsEscape off", VT_MOD_SHIFT | VT_MOD_ALT, &m, "\033[Z");
	m = legacy;
	m.modify_other_keys = 1;
	check("modifyOtherKeys 1 Shift+Alt+Tab", VT_MOD_SHIFT | VT_MOD_ALT, &m, "\033[Z");
	/* level 2 reports it, in both */
	m.modify_other_keys = 2;
	check("modifyOtherKeys 2 Shift+Alt+Tab", VT_MOD_SHIFT | VT_MOD_ALT, &m, "\033[27;4;9~");
	printf("%s\n", failures ? "FAIL" : "ok");
	return failures ? 1 : 0;
}
