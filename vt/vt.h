/* vt/vt.h: the escape-sequence parser, Unicode character properties and the key encoder.
 *
 * This is the lowest layer of kmscon-felis: it knows bytes, escape sequences and keys, and nothing about
 * screens. The parser turns a byte stream into calls on a sink (struct vt_sink); grid/ implements the sink.
 * The key encoder turns a key event plus the terminal's input modes into the bytes an application expects.
 *
 * Nothing here allocates on the hot path: the parser's only heap memory is its string buffer (OSC/DCS), which
 * grows on demand up to a hard cap set at creation.
 */
#ifndef VT_VT_H
#define VT_VT_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

/* ------------------------------------------------------------------------------------------------ parser */

/* Parameters and sub-parameters together: xterm keeps 30; we keep 32 and drop the rest harmlessly. */
#define VT_MAX_PARAMS 32
/* A parameter value never exceeds this (larger numbers clamp here: no overflow, no huge loops). */
#define VT_PARAM_MAX 65535
/* An omitted parameter ("CSI ;5H" has an omitted first parameter). */
#define VT_PARAM_DEFAULT (-1)

/* A complete control sequence: CSI, or the header of a DCS string.
 * For "CSI ? 1 ; 2 : 3 $ p": private = '?', params = {1, 2, 3}, sub_mask has bit 2 set (3 follows a ':'),
 * intermediates = "$", final = 'p'. */
struct vt_csi {
	int32_t params[VT_MAX_PARAMS]; /* VT_PARAM_DEFAULT when omitted, else 0..VT_PARAM_MAX; entries from
					* n_params on are stale: read through vt_csi_param() */
	uint32_t sub_mask;             /* bit i: params[i] is a sub-parameter (it followed ':') */
	uint8_t n_params;              /* 0 when the sequence had no parameter bytes at all */
	uint8_t private_marker;        /* '<' '=' '>' '?' or 0 */
	uint8_t n_intermediates;
	uint8_t intermediates[2];      /* 0x20..0x2f; a third one makes the sequence ignored */
	uint8_t final;                 /* 0x40..0x7e; 0 for a DCS whose header a control broke after a
					* leading '$' (no function: xterm answers it with CAN) */
	bool overflow;                 /* more parameters were given than fit: the extra ones were dropped */
	/* 0, or an id the parser gives to one byte string of a CSI sequence: every later sequence with the
	 * same id had exactly the same bytes (so the same fields above). Ids are never reused, so a sink may
	 * cache what it derives from a sequence (a parsed SGR) under its id. Most repeated sequences get one;
	 * sequences split across feeds or unusual ones get 0. */
	uint64_t seq_id;
};

/* An escape sequence that is not CSI/OSC/DCS/APC/PM/SOS: ESC, intermediates, final. */
struct vt_esc {
	uint8_t n_intermediates;
	uint8_t intermediates[2];
	uint8_t final;
};

/* Which kind of string a vt_sink.string callback carries. */
enum vt_string_kind {
	VT_STRING_OSC,
	VT_STRING_DCS,
	VT_STRING_APC,
	VT_STRING_PM,
	VT_STRING_SOS,
};

/* A sink's handler of a CSI sequence from its bytes (see vt_sink.csi_bytes). */
typedef size_t (*vt_csi_bytes_fn)(void *ctx, const uint8_t *s, size_t n);

/* The parser's output. Every pointer argument is owned by the parser and valid only during the call.
 * Callbacks may be NULL (the event is then dropped). */
struct vt_sink {
	/* A run of printable ASCII (0x20..0x7e), in order. The common case: one call per run, not per byte. */
	void (*print_ascii)(void *ctx, const uint8_t *s, size_t n);
	/* A run of printable code points (anything that is not a C0/C1 control or DEL), already decoded from
	 * UTF-8; invalid input arrives here as U+FFFD. May contain ASCII. */
	void (*print)(void *ctx, const uint32_t *cp, size_t n);
	/* A C0 control (0x00..0x1f except ESC/CAN/SUB handled by the parser itself) or a C1 control
	 * (0x80..0x9f, only when 8-bit controls are enabled). DEL is ignored, never passed on, unless the sink
	 * asked for it in the ground state (vt_parser_set_del_exec). */
	void (*execute)(void *ctx, uint8_t control);
	void (*esc)(void *ctx, const struct vt_esc *esc);
	void (*csi)(void *ctx, const struct vt_csi *csi);
	/* Optional: a CSI sequence as bytes, for a sink that acts on common ones straight from them (the
	 * parsed form costs more than the sequence itself for colour-per-cell output). s[0..n) is what
	 * follows "ESC [" up to and including the final byte s[n - 1] (0x40..0x7f), n <= 32, and s[0..32)
	 * is readable; the bytes before the final are below 0x40 or above 0x7f, any of them (a C0 control,
	 * a private marker, intermediates). The sink either does exactly what csi() would do with the
	 * parsed sequence and returns n, or does nothing and returns 0: the parser then parses it as usual.
	 * It may also take the one character that follows the sequence alone (a cell between sequences), and
	 * then returns n plus its length: a printable ASCII byte followed by a C0 control (ESC...), printed
	 * as print_ascii() would be, or a valid 3-byte UTF-8 character followed by a C0 control, printed as
	 * print() would be (only bytes within s[0..32)). Only for sequences whole in one feed, in the ground
	 * state, and never when the parser takes 8-bit C1 controls. */
	size_t (*csi_bytes)(void *ctx, const uint8_t *s, size_t n);
	/* Optional, in place of csi_bytes: one such function per final byte, csi_bytes_final[f & 63] for the
	 * sequences whose final byte is f (0x40..0x7f), each under csi_bytes' contract; a NULL entry leaves
	 * those sequences to the parser. The parser then dispatches on the final byte it found anyway, so a
	 * sink with a handler per kind of sequence needs no switch of its own (escape-heavy output sends its
	 * kinds in an unpredictable order). The array must outlive the parser. */
	const vt_csi_bytes_fn *csi_bytes_final;
	/* A complete string, terminated by ST (or BEL for OSC). For DCS, hdr holds the header sequence; for the
	 * others hdr is NULL. data[len] is 0. An OSC's text keeps the C0 controls in it, NULs included (the
	 * sink decides: xterm ignores such an OSC, a title aside), and a DCS's data keeps them and DEL (xterm
	 * ignores a DCS holding a NUL); SOS, PM and APC drop them. A DCS with a C0 control or DEL in its header
	 * is dropped. Strings longer than the cap were dropped whole and never reach this callback.
	 * A string abandoned by CAN, SUB or ESC + anything but '\' is not delivered either. */
	void (*string)(void *ctx, enum vt_string_kind kind, const struct vt_csi *hdr, const uint8_t *data,
		       size_t len);
	/* Optional: text in UTF-8, for a sink that decodes and prints in one pass (grid/ writes cells straight
	 * from the bytes, without the parser's code point buffer). s[0..n) is the rest of the input from a
	 * byte in the ground state with no sequence pending (n >= 4; it may go on past the text into controls
	 * and escapes). The sink prints a prefix of it made only of characters vt_utf8_char() accepts, exactly
	 * as print() would, and returns that prefix's length in bytes; 0 (or a short prefix) is always
	 * allowed: the parser decodes what is left as usual. The prefix may also hold CR LF pairs between
	 * such text, each byte done exactly as execute() would do it. Not called in 8-bit C1 mode. */
	size_t (*print_utf8)(void *ctx, const uint8_t *s, size_t n);
	/* Optional: input that does nothing went by: DEL ignored in the ground state, CAN or SUB (alone or
	 * cancelling a sequence), a CSI or escape sequence ignored as malformed (vt100.net's csi_ignore, a
	 * third intermediate). A sink that remembers the last character printed (for REP, which repeats only
	 * a graphic character right before it: ECMA-48 8.3.103) forgets it here, as xterm does. */
	void (*nothing)(void *ctx);
	/* Optional: a C0 control met inside an escape or control sequence, executed there while the sequence
	 * goes on (vt100.net's "execute" in the escape and CSI states); NULL: execute() takes it. A sink
	 * remembering the last character for REP keeps it here (xterm 379 forgets it only on bytes of the
	 * ground state), so that REP with a control inside still repeats it. */
	void (*execute_in_seq)(void *ctx, uint8_t control);
};

struct vt_parser;

struct vt_parser_config {
	size_t string_cap;    /* bytes kept of one OSC/DCS/APC string; 0 = default (1 MiB) */
	bool c1_8bit;         /* recognise raw 8-bit C1 controls (bytes 0x80..0x9f, ST = 0x9c ends strings):
			       * such bytes are then never UTF-8 continuation bytes, so this is not UTF-8
			       * compatible. Default false (xterm in UTF-8 mode). U+0080..U+009F decoded from
			       * UTF-8 are never printed. */
};

/* Creates a parser in the ground state. cfg may be NULL for defaults. The sink is copied; ctx is not owned
 * and must outlive the parser. Returns NULL on allocation failure. */
struct vt_parser *vt_parser_create(const struct vt_sink *sink, void *ctx, const struct vt_parser_config *cfg);
/* Accepts NULL. */
void vt_parser_destroy(struct vt_parser *p);
/* Tests only: set before vt_parser_create, the parser keeps to its baseline feed loop on a CPU with AVX2 too
 * (so that tests check both copies against the byte-by-byte path). */
extern bool vt__no_avx2;
/* Feeds bytes; sequences and UTF-8 may be split anywhere across calls. Never fails. Returns len, or fewer when
 * the sink called vt_parser_stop: the bytes before that were parsed, the rest were not (feed them next). */
size_t vt_parser_feed(struct vt_parser *p, const uint8_t *data, size_t len);
/* From a sink's callback during vt_parser_feed: the feed returns right after the sequence being dispatched when
 * that is a CSI the sink's csi_bytes does not take, an ESC sequence or a string (any event of the table machine);
 * from a csi_bytes handler or a control executed in a run of text, at the next such event. For a reader that
 * bounds its work per call (the grid's grid_feed_bounded). */
void vt_parser_stop(struct vt_parser *p);
/* Back to the ground state, dropping any partial sequence or string (RIS, or a new child). */
void vt_parser_reset(struct vt_parser *p);
/* Within vt_sink.string: whether the string ended with BEL (only an OSC can) rather than ST. A sink answers
 * a query with the terminator the query came with, as xterm does: a script that sent BEL reads the reply up
 * to a BEL. */
bool vt_parser_string_bel(const struct vt_parser *p);
/* Within vt_sink.nothing: whether what did nothing is a string dropped over the cap (or for want of memory);
 * then its kind and its first two bytes (0 where it had fewer) in *kind and head. A sink that keeps state an
 * OSC sets (an OSC 8 hyperlink) can end it rather than leave what follows under the state before. */
bool vt_parser_string_dropped(const struct vt_parser *p, enum vt_string_kind *kind, uint8_t head[2]);
/* Replaces, in a parser made with vt_sink.csi_bytes_final, the function of final byte f (0x40..0x7e) with fn
 * (a sink switching between two forms of one handler: grid's SGRs, on AVX-512 CPUs, while its colour tables
 * are bypassed; fn not NULL). A call from within such a function takes effect from the next sequence. */
void vt_parser_set_csi_bytes(struct vt_parser *p, uint8_t f, vt_csi_bytes_fn fn);
/* DEL (0x7f) in the ground state goes to vt_sink.execute when on (off at creation: DEL is ignored there, as
 * everywhere else). For a sink whose GL may hold a 96-character set, where 0x7f is a graphic character. */
void vt_parser_set_del_exec(struct vt_parser *p, bool on);

/* The value of params[i], or def when it was omitted or not given at all (i >= n_params). An explicit 0
 * is returned as 0: callers where 0 means the default (CUU, ...) map it themselves. */
int vt_csi_param(const struct vt_csi *csi, unsigned i, int def);

/* ------------------------------------------------------------------------------------- Unicode tables */

/* Display width of a code point from the Unicode data (EastAsianWidth, emoji presentation, general
 * category), not from the C library: 0 for combining marks, format characters and other zero-width code
 * points, 2 for wide/fullwidth and default-emoji-presentation characters, else 1. Controls return 0. */
int vt_char_width(uint32_t cp);

/* The property tables behind vt_char_width(), for the inline lookup below (generated by
 * tools/gen-unicode.py: one byte per code point, blocks of 1 << VT_UPROP_SHIFT code points). */
#define VT_UPROP_SHIFT 7
#define VT_UPROP_LOW 0x800
extern const uint8_t vt_uprop_index[0x110000 >> VT_UPROP_SHIFT];
extern const uint8_t vt_uprop_blocks[][1u << VT_UPROP_SHIFT];
extern const uint8_t vt_uprop_low[VT_UPROP_LOW]; /* the same for U+0000..U+07FF, flat */

/* The text loop for one- and two-byte characters without a branch per kind (grid/grid-utf8.c): indexed by
 * ((b - 0xc0) << 8 | the next byte) when the byte b is 0xc1..0xff, else by b (row 0). The entry is the code
 * point of a printable ASCII character or a complete, valid two-byte sequence whose property byte is exactly
 * 1 (plain, width 1, not pictographic); the code point - 0x8000 (negative) when it is exactly VT_PROP_MARK (a
 * combining mark); 0 for everything else (controls, DEL, C1, invalid bytes and sequences, three- and four-byte
 * leads, any other property). tests/vt/unicode.c checks it against vt_utf8_char(). */
extern const int16_t vt_utf8_pairs[0x4000];

/* The property byte of cp, inline for print loops: bits 0-1 the width (as vt_char_width), bits 2-5 the
 * Grapheme_Cluster_Break class (UAX #29; 0 = Other, 4 = Extend), bit 6 Extended_Pictographic. Code points
 * >= 0x110000 read as U+FFFD would (width 1, Other). */
#define VT_PROP_EXTPICT 0x40u
/* The whole byte of a combining mark: zero width, Extend, not pictographic. */
#define VT_PROP_MARK 0x10u
static inline unsigned vt_char_props(uint32_t cp)
{
#if defined(__GNUC__)
	if (__builtin_expect(cp < VT_UPROP_LOW, 1))
#else
	if (cp < VT_UPROP_LOW)
#endif
		return vt_uprop_low[cp];
	if (cp >= 0x110000)
		return 1;
	return vt_uprop_blocks[vt_uprop_index[cp >> VT_UPROP_SHIFT]][cp & ((1u << VT_UPROP_SHIFT) - 1)];
}

/* The width (1 or 2) of cp when it is a "plain" character: Grapheme_Cluster_Break class Other with a
 * width. Between two plain characters there is always a cluster boundary (GB999), so a run of them prints
 * cell by cell without asking vt_grapheme_break(). 0 for everything else: zero-width and combining
 * characters, ZWJ, regional indicators, emoji modifiers, Prepend, SpacingMark, Hangul jamo and syllables,
 * controls, and cp >= 0x110000. */
static inline unsigned vt_char_plain_width(uint32_t cp)
{
	unsigned p = vt_char_props(cp) & 0x3fu;
	if (cp >= 0x110000)
		return 0;
	return p - 1 < 2 ? p : 0;
}

/* Decodes the character at s, which has at least 4 readable bytes: printable ASCII or a complete, valid,
 * shortest-form UTF-8 sequence of a code point that is no surrogate, no C1 control (U+0080..U+009F) and
 * below U+110000. Returns its length in bytes (1-4) with *cp and *props (vt_char_props) set, or 0 with
 * *props = 0 for anything else (a control, DEL, an invalid or truncated sequence): what the parser's byte
 * machine decides about. One pass, for print loops: the property lookup needs no range checks here. */
static inline unsigned vt_utf8_char(const uint8_t *s, uint32_t *cp, unsigned *props)
{
	uint32_t b = s[0];
	if (b < 0x80) {
		if (b - 0x20 >= 0x5fu)
			return *props = 0;
		*cp = b;
		*props = 1; /* printable ASCII: width 1, class Other (tests/vt/unicode.c checks the table) */
		return 1;
	}
	/* continuation bytes are 0x80..0xbf: xor 0x80 leaves their payload, anything else is >= 0x40 */
	uint32_t c1 = s[1] ^ 0x80u, c;
	if (b < 0xe0) {
		/* a lead byte below 0xc0 wraps around to a huge value: one range check for U+00A0..U+07FF */
		c = (b - 0xc0u) << 6 | c1;
		if (c1 >= 0x40 || c - 0xa0u >= 0x800u - 0xa0u)
			return *props = 0;
		*cp = c;
		*props = vt_uprop_low[c];
		return 2;
	}
	uint32_t c2 = s[2] ^ 0x80u;
	if (b < 0xf0) {
		c = (b & 0x0fu) << 12 | c1 << 6 | c2;
		/* not overlong (< U+0800), not a surrogate */
		if ((c1 | c2) >= 0x40 || c < 0x800 || c - 0xd800 < 0x800)
			return *props = 0;
		*cp = c;
		*props = vt_uprop_blocks[vt_uprop_index[c >> VT_UPROP_SHIFT]][c & ((1u << VT_UPROP_SHIFT) - 1)];
		return 3;
	}
	uint32_t c3 = s[3] ^ 0x80u;
	c = (b & 0x07u) << 18 | c1 << 12 | c2 << 6 | c3;
	/* U+10000..U+10FFFF only: rejects overlong forms and the leads 0xf5..0xff */
	if (b >= 0xf8 || (c1 | c2 | c3) >= 0x40 || c - 0x10000 >= 0x100000)
		return *props = 0;
	*cp = c;
	*props = vt_uprop_blocks[vt_uprop_index[c >> VT_UPROP_SHIFT]][c & ((1u << VT_UPROP_SHIFT) - 1)];
	return 4;
}

/* Encodes cp as UTF-8 into out (room for 4 bytes) and returns the length (1-4). A surrogate or a value
 * above U+10FFFF, which UTF-8 cannot carry, is written as U+FFFD: every writer of text (replies, key
 * bytes, selections, screen dumps) shares this one rule. */
static inline unsigned vt_utf8_encode(uint32_t cp, char *out)
{
	if (cp > 0x10ffff || (cp >= 0xd800 && cp <= 0xdfff))
		cp = 0xfffd;
	if (cp < 0x80) {
		out[0] = (char)cp;
		return 1;
	}
	if (cp < 0x800) {
		out[0] = (char)(0xc0 | cp >> 6);
		out[1] = (char)(0x80 | (cp & 0x3f));
		return 2;
	}
	if (cp < 0x10000) {
		out[0] = (char)(0xe0 | cp >> 12);
		out[1] = (char)(0x80 | (cp >> 6 & 0x3f));
		out[2] = (char)(0x80 | (cp & 0x3f));
		return 3;
	}
	out[0] = (char)(0xf0 | cp >> 18);
	out[1] = (char)(0x80 | (cp >> 12 & 0x3f));
	out[2] = (char)(0x80 | (cp >> 6 & 0x3f));
	out[3] = (char)(0x80 | (cp & 0x3f));
	return 4;
}

/* Grapheme cluster segmentation (UAX #29's extended clusters without GB9a and GB9b, i.e. legacy ones for
 * spacing marks and Prepend, which take cells of their own as wcwidth() counts them; vt/unicode.c): true
 * when a cluster boundary lies between prev and cp. state carries what the rules need (regional-indicator
 * parity, emoji ZWJ sequence) about the text ending at prev; start with 0 (then it is derived from prev
 * alone), pass the same variable for the following code points. Resetting it to 0 after a break is also
 * correct. */
bool vt_grapheme_break(uint32_t prev, uint32_t cp, uint32_t *state);

/* -------------------------------------------------------------------------------------------- keys */

/* Modifier bits, as in xterm's "1 + modifiers" parameter encoding. */
enum vt_mod {
	VT_MOD_SHIFT = 1 << 0,
	VT_MOD_ALT = 1 << 1,
	VT_MOD_CTRL = 1 << 2,
	VT_MOD_SUPER = 1 << 3,
	VT_MOD_HYPER = 1 << 4,
	VT_MOD_META = 1 << 5,
	VT_MOD_CAPS = 1 << 6,
	VT_MOD_NUM = 1 << 7,
};

/* Keys that have no text of their own. Printable keys use VT_KEY_NONE plus a code point. */
enum vt_keysym {
	VT_KEY_NONE = 0,
	VT_KEY_ENTER, VT_KEY_TAB, VT_KEY_BACKSPACE, VT_KEY_ESCAPE,
	VT_KEY_UP, VT_KEY_DOWN, VT_KEY_RIGHT, VT_KEY_LEFT,
	VT_KEY_HOME, VT_KEY_END, VT_KEY_INSERT, VT_KEY_DELETE, VT_KEY_PAGE_UP, VT_KEY_PAGE_DOWN,
	VT_KEY_F1, /* F1..F24 are consecutive */
	VT_KEY_F24 = VT_KEY_F1 + 23,
	VT_KEY_KP_0, /* keypad 0..9 are consecutive */
	VT_KEY_KP_9 = VT_KEY_KP_0 + 9,
	VT_KEY_KP_DECIMAL, VT_KEY_KP_DIVIDE, VT_KEY_KP_MULTIPLY, VT_KEY_KP_SUBTRACT, VT_KEY_KP_ADD,
	VT_KEY_KP_ENTER, VT_KEY_KP_EQUAL, VT_KEY_KP_SEPARATOR,
	VT_KEY_KP_UP, VT_KEY_KP_DOWN, VT_KEY_KP_RIGHT, VT_KEY_KP_LEFT,
	VT_KEY_KP_HOME, VT_KEY_KP_END, VT_KEY_KP_INSERT, VT_KEY_KP_DELETE,
	VT_KEY_KP_PAGE_UP, VT_KEY_KP_PAGE_DOWN, VT_KEY_KP_BEGIN,
	VT_KEY_MENU, VT_KEY_PAUSE, VT_KEY_PRINT, VT_KEY_SCROLL_LOCK, VT_KEY_CAPS_LOCK, VT_KEY_NUM_LOCK,
	VT_KEY_LEFT_SHIFT, VT_KEY_RIGHT_SHIFT, VT_KEY_LEFT_CTRL, VT_KEY_RIGHT_CTRL,
	VT_KEY_LEFT_ALT, VT_KEY_RIGHT_ALT, VT_KEY_LEFT_SUPER, VT_KEY_RIGHT_SUPER,
	VT_KEY_LEFT_HYPER, VT_KEY_RIGHT_HYPER, VT_KEY_ISO_LEVEL3_SHIFT, VT_KEY_ISO_LEVEL5_SHIFT,
	VT_KEY_LAST_MODIFIER_ = VT_KEY_ISO_LEVEL5_SHIFT, /* LEFT_SHIFT..here: modifier keys */
	/* media and volume keys: only the kitty protocol has codes for them */
	VT_KEY_MEDIA_PLAY, VT_KEY_MEDIA_PAUSE, VT_KEY_MEDIA_STOP, VT_KEY_MEDIA_FAST_FORWARD, VT_KEY_MEDIA_REWIND,
	VT_KEY_MEDIA_TRACK_NEXT, VT_KEY_MEDIA_TRACK_PREVIOUS, VT_KEY_MEDIA_RECORD,
	VT_KEY_LOWER_VOLUME, VT_KEY_RAISE_VOLUME, VT_KEY_MUTE_VOLUME,
	VT_KEY_COUNT_
};

enum vt_key_action {
	VT_KEY_PRESS = 1,
	VT_KEY_REPEAT = 2,
	VT_KEY_RELEASE = 3,
};

struct vt_key_event {
	enum vt_keysym key;        /* VT_KEY_NONE for a key that produces text */
	enum vt_key_action action;
	unsigned mods;             /* enum vt_mod bits, as held when the key was pressed */
	uint32_t text;             /* the code point the layout produces with the current modifiers, before any
				    * Ctrl transformation ('A' for Ctrl+Shift+a, not 0x01); 0 if none */
	uint32_t unshifted;        /* the code point of the key without modifiers (kitty protocol, modifyOtherKeys)
				    * e.g. 'a' for Shift+A; 0 if none */
	uint32_t base;             /* the code point of the same physical key in the US layout, 0 if unknown:
				    * Ctrl+key on a non-Latin layout (Ctrl+С sends ^C) and kitty's base-layout key */
};

/* The terminal modes that change what keys send. grid/ fills this from the application's requests. */
struct vt_key_modes {
	bool cursor_keys_app;      /* DECCKM (DECSET 1) */
	bool keypad_app;           /* DECKPAM */
	bool newline_mode;         /* LNM: Enter sends CR LF */
	bool backspace_sends_bs;   /* ^H instead of DEL (--backspace-delete off) */
	bool alt_sends_escape;     /* Alt prefixes ESC (grid sets it true by default; when false, Alt is
				    * ignored for text keys) */
	uint8_t modify_other_keys; /* 0, 1 or 2 (CSI > 4 ; N m) */
	uint8_t kitty_flags;       /* kitty keyboard protocol progressive enhancement flags (0 = off) */
};

/* Whether cp belongs to a script other than Latin (Greek, Cyrillic and beyond, less the Latin blocks past them:
 * Latin Extended Additional, -C, -D, -E, and less the symbols, which are no script: U+2000..U+2BFF, punctuation,
 * currency signs, arrows, mathematical and technical signs, box drawing, dingbats, and the CJK punctuation
 * U+3000..U+303F): a key typing such a character under Ctrl (the encoder) or in a shortcut (the console's grabs)
 * stands for its key's US-layout letter, a Latin layout's letters and any layout's symbols (AltGr+e's euro sign)
 * for themselves, as xterm sends them. */
static inline bool vt_non_latin(uint32_t cp)
{
	return cp >= 0x370 && !(cp >= 0x1e00 && cp < 0x1f00) && !(cp >= 0x2000 && cp < 0x2c00) &&
	       !(cp >= 0x2c60 && cp < 0x2c80) && !(cp >= 0x3000 && cp < 0x3040) && !(cp >= 0xa720 && cp < 0xa800) &&
	       !(cp >= 0xab30 && cp < 0xab70);
}

/* Encodes one key event into out (at most cap bytes; 64 always suffices). Returns the number of bytes
 * written, 0 when the event sends nothing (a release without kitty flag 2, a lone modifier, ...). */
size_t vt_key_encode(const struct vt_key_event *ev, const struct vt_key_modes *modes, uint8_t *out,
		     size_t cap);

#endif
