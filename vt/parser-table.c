/* vt/parser-table.c: the transitions of the escape-sequence parser as data, one range list per state of
 * Paul Flo Williams' DEC machine (https://vt100.net/emu/dec_ansi_parser, with the deviations listed at the
 * top of vt/parser.c), flattened into the byte-indexed table each parser feeds from. Built once per parser
 * (vt_parser_create); nothing here runs while bytes are fed. */
#include "vt/parser-internal.h"

struct range {
	uint8_t first, last, action, next;
};

#define R(a, b, act, st) { a, b, act, st }
#define END_RANGES R(0, 0, A_NONE, 0xff)

/* Bytes that act the same in every state of the machine (vt100.net "anywhere"). C1 only in 8-bit mode. */
static const struct range anywhere_c0[] = {
	R(0x18, 0x18, A_CANCEL, S_GROUND), R(0x1a, 0x1a, A_CANCEL, S_GROUND), R(0x1b, 0x1b, A_ESC, S_ESC),
	END_RANGES,
};
static const struct range anywhere_c1[] = {
	R(0x80, 0x8f, A_EXEC, S_GROUND), R(0x90, 0x90, A_CLEAR, S_DCS_ENTRY), R(0x91, 0x97, A_EXEC, S_GROUND),
	R(0x98, 0x98, A_STR_START, S_SOS_PM_APC), R(0x99, 0x9a, A_EXEC, S_GROUND),
	R(0x9b, 0x9b, A_CLEAR, S_CSI_ENTRY), R(0x9c, 0x9c, A_NONE, S_GROUND),
	R(0x9d, 0x9d, A_STR_START, S_OSC), R(0x9e, 0x9f, A_STR_START, S_SOS_PM_APC),
	END_RANGES,
};

/* C0 controls other than CAN, SUB, ESC execute in the ground, escape and CSI states. */
#define C0_EXEC R(0x00, 0x17, A_EXEC, S_KEEP), R(0x19, 0x19, A_EXEC, S_KEEP), R(0x1c, 0x1f, A_EXEC, S_KEEP)
#define C0_IGNORE R(0x00, 0x17, A_NONE, S_KEEP), R(0x19, 0x19, A_NONE, S_KEEP), R(0x1c, 0x1f, A_NONE, S_KEEP)
/* C0 controls (CAN, SUB and ESC are "anywhere") and DEL in a DCS header: the string is dropped */
#define C0_DCS_DROP R(0x00, 0x1f, A_DCS_IGNORE, S_DCS_IGNORE), R(0x7f, 0x7f, A_DCS_IGNORE, S_DCS_IGNORE)
/* A non-C1 byte >= 0x80 in a sequence: cancel it, the byte is text. */
#define HIGH_REDO R(0x80, 0xff, A_REDO, S_GROUND)

static const struct range *const state_ranges[S_COUNT] = {
	[S_GROUND] = (const struct range[]){
		/* Printable bytes and UTF-8 never get here: ground_run() takes them. */
		C0_EXEC, R(0x7f, 0x7f, A_VOID, S_KEEP), END_RANGES,
	},
	[S_ESC] = (const struct range[]){
		C0_EXEC, R(0x20, 0x2f, A_COLLECT, S_ESC_INTER), R(0x30, 0x7e, A_ESC_DISPATCH, S_GROUND),
		R(0x50, 0x50, A_CLEAR, S_DCS_ENTRY), R(0x58, 0x58, A_STR_START, S_SOS_PM_APC),
		R(0x5b, 0x5b, A_CLEAR, S_CSI_ENTRY), R(0x5d, 0x5d, A_STR_START, S_OSC),
		R(0x5e, 0x5f, A_STR_START, S_SOS_PM_APC), R(0x7f, 0x7f, A_NONE, S_KEEP), HIGH_REDO, END_RANGES,
	},
	[S_ESC_INTER] = (const struct range[]){
		C0_EXEC, R(0x20, 0x2f, A_COLLECT, S_KEEP), R(0x30, 0x7e, A_ESC_DISPATCH, S_GROUND),
		R(0x7f, 0x7f, A_NONE, S_KEEP), HIGH_REDO, END_RANGES,
	},
	[S_CSI_ENTRY] = (const struct range[]){
		C0_EXEC, R(0x20, 0x2f, A_COLLECT, S_CSI_INTER), R(0x30, 0x3b, A_PARAM, S_CSI_PARAM),
		R(0x3c, 0x3f, A_COLLECT, S_CSI_PARAM), R(0x40, 0x7e, A_CSI_DISPATCH, S_GROUND),
		R(0x7f, 0x7f, A_NONE, S_KEEP), HIGH_REDO, END_RANGES,
	},
	[S_CSI_PARAM] = (const struct range[]){
		C0_EXEC, R(0x20, 0x2f, A_COLLECT, S_CSI_INTER), R(0x30, 0x3b, A_PARAM, S_KEEP),
		R(0x3c, 0x3f, A_NONE, S_CSI_IGNORE), R(0x40, 0x7e, A_CSI_DISPATCH, S_GROUND),
		R(0x7f, 0x7f, A_NONE, S_KEEP), HIGH_REDO, END_RANGES,
	},
	[S_CSI_INTER] = (const struct range[]){
		C0_EXEC, R(0x20, 0x2f, A_COLLECT, S_KEEP), R(0x30, 0x3f, A_NONE, S_CSI_IGNORE),
		R(0x40, 0x7e, A_CSI_DISPATCH, S_GROUND), R(0x7f, 0x7f, A_NONE, S_KEEP), HIGH_REDO, END_RANGES,
	},
	[S_CSI_IGNORE] = (const struct range[]){
		C0_EXEC, R(0x20, 0x3f, A_NONE, S_KEEP), R(0x40, 0x7e, A_VOID, S_GROUND),
		R(0x7f, 0x7f, A_NONE, S_KEEP), HIGH_REDO, END_RANGES,
	},
	/* A C0 control or DEL in a DCS header drops the string, where DEC's machine ignores the byte: xterm 379
	 * reads the header from the string and knows no function with one in it ("DCS LF $ q m ST" is no
	 * DECRQSS). CAN, SUB and ESC keep their "anywhere" meaning. After a leading '$' the string is kept with
	 * final 0 instead (parser.c dcs_ignore): xterm answers such a text with CAN. */
	[S_DCS_ENTRY] = (const struct range[]){
		C0_DCS_DROP, R(0x20, 0x2f, A_COLLECT, S_DCS_INTER), R(0x30, 0x3b, A_PARAM, S_DCS_PARAM),
		R(0x3c, 0x3f, A_COLLECT, S_DCS_PARAM), R(0x40, 0x7e, A_HOOK, S_DCS_PASS), HIGH_REDO, END_RANGES,
	},
	[S_DCS_PARAM] = (const struct range[]){
		C0_DCS_DROP, R(0x20, 0x2f, A_COLLECT, S_DCS_INTER), R(0x30, 0x3b, A_PARAM, S_KEEP),
		R(0x3c, 0x3f, A_DCS_IGNORE, S_DCS_IGNORE), R(0x40, 0x7e, A_HOOK, S_DCS_PASS), HIGH_REDO,
		END_RANGES,
	},
	[S_DCS_INTER] = (const struct range[]){
		C0_DCS_DROP, R(0x20, 0x2f, A_COLLECT, S_KEEP), R(0x30, 0x3f, A_DCS_IGNORE, S_DCS_IGNORE),
		R(0x40, 0x7e, A_HOOK, S_DCS_PASS), HIGH_REDO, END_RANGES,
	},
	/* The data keeps every byte but the terminator's, DEL too (DEC's machine ignores it): xterm keeps it,
	 * so "DCS $ q m DEL ST" asks for no known setting */
	[S_DCS_PASS] = (const struct range[]){
		R(0x00, 0xff, A_PUT, S_KEEP), R(0x1b, 0x1b, A_NONE, S_STR_ESC), END_RANGES,
	},
	[S_DCS_IGNORE] = (const struct range[]){
		R(0x00, 0xff, A_NONE, S_KEEP), R(0x1b, 0x1b, A_NONE, S_STR_ESC), END_RANGES,
	},
	/* C0 controls are kept in an OSC's text (xterm's do_osc sees them and ignores such an OSC, a title
	 * aside), where DEC's machine ignores them: its rule made "1 LF 0" the number 10 */
	[S_OSC] = (const struct range[]){
		R(0x00, 0x1f, A_PUT, S_KEEP), R(0x07, 0x07, A_STR_END, S_GROUND), R(0x20, 0xff, A_PUT, S_KEEP),
		R(0x1b, 0x1b, A_NONE, S_STR_ESC), END_RANGES,
	},
	[S_SOS_PM_APC] = (const struct range[]){
		C0_IGNORE, R(0x20, 0xff, A_PUT, S_KEEP), R(0x1b, 0x1b, A_NONE, S_STR_ESC), END_RANGES,
	},
	[S_STR_ESC] = (const struct range[]){
		R(0x00, 0xff, A_REDO, S_ESC), R(0x5c, 0x5c, A_STR_END, S_GROUND), END_RANGES,
	},
};

static void apply_ranges(uint8_t *row, const struct range *r, unsigned self)
{
	for (; r->next != 0xff; r++) {
		unsigned next = r->next == S_KEEP ? self : r->next;
		for (unsigned b = r->first; b <= r->last; b++)
			row[b] = (uint8_t)(r->action << 4 | next);
	}
}

void vt__parser_build_table(struct vt_parser *p)
{
	for (unsigned s = 0; s < S_COUNT; s++) {
		uint8_t *row = p->trans[s];
		memset(row, A_NONE << 4 | s, 256);
		apply_ranges(row, state_ranges[s], s);
		apply_ranges(row, anywhere_c0, s);
		/* ESC right after a DCS header's intermediates may start the ST of "DCS $ ST" (parser.c dcs_ignore) */
		if (s == S_DCS_INTER)
			row[0x1b] = A_DCS_IGNORE << 4 | S_ESC;
		/* Inside strings ESC may be the first half of ST. */
		if (s == S_DCS_PASS || s == S_DCS_IGNORE || s == S_OSC || s == S_SOS_PM_APC)
			row[0x1b] = A_NONE << 4 | S_STR_ESC;
		if (!p->c1)
			continue;
		apply_ranges(row, anywhere_c1, s);
		if (s == S_DCS_PASS || s == S_DCS_IGNORE || s == S_OSC || s == S_SOS_PM_APC || s == S_STR_ESC)
			row[0x9c] = A_STR_END << 4 | S_GROUND;
		if (s == S_DCS_INTER)
			row[0x9c] = A_DCS_IGNORE << 4 | S_GROUND;
	}
}
