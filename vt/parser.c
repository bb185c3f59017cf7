/* vt/parser.c: the escape-sequence parser.
 *
 * Transcribed from Paul Flo Williams' state machine for DEC-compatible terminals,
 * https://vt100.net/emu/dec_ansi_parser, with the control functions of ECMA-48 5th edition and the string
 * and parameter conventions of xterm (https://invisible-island.net/xterm/ctlseqs/ctlseqs.html). The
 * transitions are data: one range list per state (vt/parser-table.c), flattened into a byte-indexed table
 * per parser.
 *
 * Deviations from the vt100.net machine, and why:
 * - ':' is a parameter separator that marks the next parameter as a sub-parameter (ITU T.416 / ECMA-48
 *   5.4.2 as used by SGR 38:2::r:g:b and 4:3), where DEC's machine sends the sequence to csi_ignore.
 * - Bytes 0x80..0xff are UTF-8 in the ground state, decoded with one U+FFFD per maximal invalid subpart
 *   (Unicode 15.0 chapter 3.9, "U+FFFD Substitution of Maximal Subparts"). Raw 8-bit C1 controls are only
 *   recognised when the parser is configured for them (vt_parser_config.c1_8bit), because in UTF-8 text
 *   every continuation byte 0x80..0x9f would otherwise be mistaken for one.
 * - Inside ESC and CSI sequences a byte >= 0x80 (not a C1 control) cancels the sequence and is handled
 *   again as text: a stray ESC before UTF-8 text should not eat the text (DEC's machine treats it as GL).
 * - OSC, DCS, APC, PM and SOS strings are all collected (the machine ignores SOS/PM/APC) and delivered
 *   whole when they end: OSC by BEL or ST, the others by ST only. ESC followed by anything but '\' inside
 *   a string abandons the string (it is not dispatched) and starts that new escape sequence; CAN and SUB
 *   abandon it too. A string longer than the configured cap is dropped whole. The other C0 controls inside
 *   an OSC are kept in its text (the machine ignores them): xterm's do_osc sees them and ignores such an OSC
 *   (a title aside), where dropping them made "OSC 1 LF 0 ; ? BEL" a colour query. A DCS's data keeps
 *   DEL as well, and a C0 control or DEL in a DCS header drops the string: xterm reads the header from the
 *   string, so "DCS $ q m DEL ST" names no setting and "DCS LF $ q m ST" is no DECRQSS. A malformed DCS
 *   header that a '$' begins (a control, parameter, marker or third intermediate after it, or ST in it) is
 *   kept with final 0 instead: xterm answers every text that starts with '$' and is no DECRQSS with CAN.
 * - CAN and SUB cancel a sequence and are not passed on (xterm shows nothing for them either); the sink hears
 *   of them, as of DEL in the ground state and of a sequence ignored as malformed, through vt_sink.nothing
 *   (REP repeats nothing after them).
 * - A third intermediate byte makes the sequence ignored (no terminal defines one); parameters beyond
 *   VT_MAX_PARAMS are dropped and flagged in vt_csi.overflow; values clamp at VT_PARAM_MAX.
 *
 * Hot path: in the ground state, runs of printable ASCII are found 8 bytes at a time and handed to the sink
 * in one call, runs of UTF-8 are given to the sink as bytes when it decodes them itself (print_utf8) or
 * decoded into a buffer on the stack and handed over in one call, and the
 * digits of a CSI parameter are read in a tight loop. Nothing allocates except the string buffer.
 */
#include "vt/parser-internal.h"

#if defined(__GNUC__) && defined(__x86_64__)
/* vt_parser_feed has a copy for CPUs with AVX2 (feed_avx2), chosen at run time */
#define HAVE_FEED_AVX2 1
#endif

/* The csi_tab entry of a final the sink does not take from bytes. */
static size_t no_csi_bytes(void *ctx, const uint8_t *s, size_t n)
{
	(void)ctx, (void)s, (void)n;
	return 0;
}

static void build_csi_tab(struct vt_parser *p)
{
	const vt_csi_bytes_fn *fin = p->sink.csi_bytes_final;
	p->csi_tab_on = fin || p->sink.csi_bytes;
	for (unsigned b = 0; b < 256; b++) {
		vt_csi_bytes_fn fn = b < 0x40 || b > 0x7f ? NULL : fin ? fin[b & 63] : p->sink.csi_bytes;
		p->csi_tab[b] = fn ? fn : no_csi_bytes;
	}
}

bool vt__no_avx2;

struct vt_parser *vt_parser_create(const struct vt_sink *sink, void *ctx, const struct vt_parser_config *cfg)
{
	struct vt_parser *p = calloc(1, sizeof(*p));
	if (!p)
		return NULL;
	if (sink)
		p->sink = *sink;
	p->ctx = ctx;
	p->str_cap = cfg && cfg->string_cap ? cfg->string_cap : STRING_CAP_DEFAULT;
	p->c1 = cfg && cfg->c1_8bit;
	vt__parser_build_table(p);
	build_csi_tab(p);
#if defined(HAVE_FEED_AVX2)
	p->avx2 = !vt__no_avx2 && __builtin_cpu_supports("avx2") && __builtin_cpu_supports("bmi");
#endif
	p->state = S_GROUND;
	return p;
}

void vt_parser_destroy(struct vt_parser *p)
{
	if (!p)
		return;
	free(p->str);
	free(p);
}


void vt_parser_reset(struct vt_parser *p)
{
	p->state = S_GROUND;
	p->carry_n = 0;
	p->u_need = 0;
	vt__str_release(p);
}

int vt_csi_param(const struct vt_csi *csi, unsigned i, int def)
{
	if (i >= csi->n_params || csi->params[i] == VT_PARAM_DEFAULT)
		return def;
	return csi->params[i];
}

/* ------------------------------------------------------------------------------------- sequences */

static void seq_clear(struct vt_parser *p)
{
	p->csi.n_params = 0;
	p->csi.sub_mask = 0;
	p->csi.private_marker = 0;
	p->csi.n_intermediates = 0;
	p->csi.final = 0;
	p->csi.overflow = false;
	p->csi.seq_id = 0;
	p->cur = NULL;
	p->ignore = false;
}

static void collect(struct vt_parser *p, uint8_t b)
{
	if (b >= 0x3c) {
		p->csi.private_marker = b;
	} else if (p->csi.n_intermediates < sizeof(p->csi.intermediates)) {
		p->csi.intermediates[p->csi.n_intermediates++] = b;
	} else {
		p->ignore = true;
	}
}

/* A separator: the next parameter starts (omitted until a digit arrives). */
static void param_next(struct vt_parser *p, bool sub)
{
	struct vt_csi *c = &p->csi;
	if (c->n_params >= VT_MAX_PARAMS) {
		c->overflow = true;
		p->cur = &p->dummy;
		return;
	}
	if (sub)
		c->sub_mask |= 1u << c->n_params;
	p->cur = &c->params[c->n_params++];
	*p->cur = VT_PARAM_DEFAULT;
}

/* Parameter bytes starting at d[i] (which is one): digits are read in one loop. Returns the index of the
 * first byte not consumed. */
static size_t params(struct vt_parser *p, const uint8_t *d, size_t i, size_t n)
{
	if (!p->cur) {
		p->cur = &p->csi.params[0];
		p->csi.params[0] = VT_PARAM_DEFAULT;
		p->csi.n_params = 1;
	}
	while (i < n) {
		uint8_t b = d[i];
		if (b >= '0' && b <= '9') {
			int32_t v = *p->cur < 0 ? 0 : *p->cur;
			do {
				v = v * 10 + (d[i] - '0');
				if (v > VT_PARAM_MAX)
					v = VT_PARAM_MAX;
			} while (++i < n && d[i] >= '0' && d[i] <= '9');
			*p->cur = v;
		} else if (b == ';' || b == ':') {
			param_next(p, b == ':');
			i++;
		} else {
			break;
		}
	}
	return i;
}

/* Input that did nothing (vt_sink.nothing). */
static void nothing(struct vt_parser *p)
{
	if (p->sink.nothing)
		p->sink.nothing(p->ctx);
}

static void esc_dispatch(struct vt_parser *p, uint8_t b)
{
	if (p->ignore) {
		nothing(p);
		return;
	}
	if (!p->sink.esc)
		return;
	struct vt_esc e = {.n_intermediates = p->csi.n_intermediates, .final = b};
	memcpy(e.intermediates, p->csi.intermediates, sizeof(e.intermediates));
	p->sink.esc(p->ctx, &e);
}

static void csi_dispatch(struct vt_parser *p, uint8_t b)
{
	if (p->ignore) {
		nothing(p);
		return;
	}
	if (!p->sink.csi)
		return;
	p->csi.final = b;
	p->sink.csi(p->ctx, &p->csi);
}

/* ---------------------------------------------------------------------------------------- ground */

static inline void print_cps(struct vt_parser *p, const uint32_t *cp, size_t n)
{
	if (n && p->sink.print)
		p->sink.print(p->ctx, cp, n);
}

#include "vt/parser-scan.h"

/* The fast decoder of utf8_run: printable ASCII and complete, valid UTF-8 sequences from d[i] into buf[k..],
 * for bytes before end (end <= n - 3, so a sequence of up to 4 bytes starting there is in the buffer, and
 * end - i <= room in buf: every code point takes at least one byte). Stops before anything else: a control,
 * an invalid or truncated sequence (the caller's byte machine takes those), or 32 ASCII bytes in a row
 * (then *stop is set: a long stretch of ASCII is printed faster by print_ascii). Returns the index of the
 * first byte not consumed; *kp is updated. UTF-8-encoded C1 controls (U+0080..U+009F) are dropped. */
static inline size_t utf8_fast(const uint8_t *d, size_t i, size_t end, uint32_t *buf, size_t *kp, bool *stop)
{
	size_t k = *kp;
	unsigned ascii = 0;
	while (i < end) {
		uint32_t b = d[i];
		if (b < 0x80) {
			if (b - 0x20 >= 0x5fu || ++ascii >= 32) {
				*stop = true;
				if (b - 0x20 < 0x5fu)
					buf[k++] = b, i++;
				break;
			}
			buf[k++] = b;
			i++;
			continue;
		}
		ascii = 0;
		/* Continuation bytes are 0x80..0xbf: xor 0x80 leaves their payload, anything else is >= 0x40. */
		uint32_t c1 = d[i + 1] ^ 0x80u;
		if (b < 0xe0) {
			if (b < 0xc2 || c1 >= 0x40)
				break;
			uint32_t c = (b & 0x1fu) << 6 | c1;
			i += 2;
			if (c >= 0xa0)
				buf[k++] = c;
			continue;
		}
		uint32_t c2 = d[i + 2] ^ 0x80u;
		if (b < 0xf0) {
			uint32_t c = (b & 0x0fu) << 12 | c1 << 6 | c2;
			/* not overlong (< U+0800), not a surrogate */
			if ((c1 | c2) >= 0x40 || c < 0x800 || c - 0xd800 < 0x800)
				break;
			buf[k++] = c;
			i += 3;
			continue;
		}
		uint32_t c3 = d[i + 3] ^ 0x80u;
		uint32_t c = (b & 0x07u) << 18 | c1 << 12 | c2 << 6 | c3;
		/* U+10000..U+10FFFF only: rejects overlong forms and the leads 0xf5..0xff */
		if (b >= 0xf8 || (c1 | c2 | c3) >= 0x40 || c - 0x10000 >= 0x100000)
			break;
		buf[k++] = c;
		i += 4;
	}
	*kp = k;
	return i;
}

/* UTF-8 from d[i]: decodes into a stack buffer and prints it in batches. Stops at a control (C0, DEL,
 * raw C1 in 8-bit mode) or at a long stretch of ASCII, which the caller prints faster; with a sink that has
 * print_utf8, after one character (ground_run hands the rest back to the sink). Returns the index of
 * the first byte not consumed. Valid text goes through utf8_fast; the byte machine below takes what it
 * stops at (invalid sequences, sequences split across reads, the last 3 bytes of the buffer). */
static size_t utf8_run(struct vt_parser *p, const uint8_t *d, size_t i, size_t n)
{
	uint32_t buf[PRINT_BUF];
	size_t k = 0;
	uint32_t cp = p->u_cp;
	unsigned need = p->u_need, lo = p->u_lo, hi = p->u_hi;
	/* with a sink that decodes itself, one character and back to it */
	const bool one = p->sink.print_utf8 && !p->c1;

	while (i < n) {
		if (one && k && !need)
			break;
		if (!need && !p->c1 && n - i >= 4) {
			size_t end = n - 3, room = PRINT_BUF - 1 - k;
			if (end - i > room)
				end = i + room;
			if (one)
				end = i + 1;
			bool stop = false;
			i = utf8_fast(d, i, end, buf, &k, &stop);
			if (stop)
				break;
			if (k >= PRINT_BUF - 1) {
				print_cps(p, buf, k);
				k = 0;
			}
			if (i >= end)
				continue;
		}
		uint8_t b = d[i];
		if (k >= PRINT_BUF - 1) {
			print_cps(p, buf, k);
			k = 0;
		}
		if (need) {
			if (b >= lo && b <= hi && !(p->c1 && b < 0xa0)) {
				cp = cp << 6 | (b & 0x3fu);
				i++;
				lo = 0x80, hi = 0xbf;
				if (--need)
					continue;
				if (cp >= 0x80 && cp < 0xa0)
					continue; /* a C1 control written as UTF-8: not a character, dropped */
				buf[k++] = cp;
				continue;
			}
			/* The maximal subpart so far is invalid: one U+FFFD, then b again from scratch. */
			buf[k++] = 0xfffd;
			need = 0;
			continue;
		}
		if (b < 0x80) {
			if (b < 0x20 || b == 0x7f)
				break;
			/* A stretch of ASCII between non-ASCII characters (a space, a word of Latin text): copied
			 * here if short; a long one goes back to print_ascii. */
			size_t e = scan_printable(d, i, n - i > 32 ? i + 32 : n);
			if (e - i >= 32)
				break;
			if (k + (e - i) >= PRINT_BUF - 1) {
				print_cps(p, buf, k);
				k = 0;
			}
			while (i < e)
				buf[k++] = d[i++];
			continue;
		}
		if (p->c1 && b < 0xa0)
			break;
		i++;
		if (b >= 0xc2 && b <= 0xdf) {
			need = 1, cp = b & 0x1fu, lo = 0x80, hi = 0xbf;
		} else if (b >= 0xe0 && b <= 0xef) {
			need = 2, cp = b & 0x0fu;
			lo = b == 0xe0 ? 0xa0 : 0x80;
			hi = b == 0xed ? 0x9f : 0xbf;
		} else if (b >= 0xf0 && b <= 0xf4) {
			need = 3, cp = b & 0x07u;
			lo = b == 0xf0 ? 0x90 : 0x80;
			hi = b == 0xf4 ? 0x8f : 0xbf;
		} else {
			buf[k++] = 0xfffd; /* 0x80..0xc1, 0xf5..0xff never start a sequence */
		}
	}
	if (need && i < n) {
		/* A control interrupts the sequence. */
		buf[k++] = 0xfffd;
		need = 0;
	}
	print_cps(p, buf, k);
	p->u_cp = cp;
	p->u_need = (uint8_t)need;
	p->u_lo = (uint8_t)lo;
	p->u_hi = (uint8_t)hi;
	return i;
}

/* The ground state's text: returns the index of the first byte that is not text (a control for the
 * transition table), or n. */
static size_t ground_run(struct vt_parser *p, const uint8_t *d, size_t i, size_t n)
{
	while (i < n && p->state == S_GROUND) {
		if (!p->u_need) {
			size_t s = i;
			i = scan_printable(d, i, n);
			if (i > s && p->sink.print_ascii)
				p->sink.print_ascii(p->ctx, d + s, i - s);
			if (i == n)
				break;
			uint8_t b = d[i];
			if (b < 0x80 || (p->c1 && b < 0xa0))
				break;
		}
		/* One 2- or 3-byte character alone before a control (a cell between escape sequences, as in
		 * a colour animation's U+2580 halves): decoded here, without utf8_run's buffer and loops. The
		 * checks are utf8_fast's; anything else (4 bytes, invalid, more text after it) goes on below. */
		if (!p->u_need && !p->c1 && n - i >= 4) {
			uint32_t b = d[i], c1 = d[i + 1] ^ 0x80u, c2 = d[i + 2] ^ 0x80u, cp;
			if (b >= 0xc2 && b < 0xe0 && c1 < 0x40 && d[i + 2] < 0x20) {
				cp = (b & 0x1fu) << 6 | c1;
				if (cp >= 0xa0) {
					print_cps(p, &cp, 1);
					i += 2;
					break;
				}
			} else if (b >= 0xe0 && b < 0xf0 && d[i + 3] < 0x20) {
				cp = (b & 0x0fu) << 12 | c1 << 6 | c2;
				if ((c1 | c2) < 0x40 && cp >= 0x800 && cp - 0xd800 >= 0x800) {
					print_cps(p, &cp, 1);
					i += 3;
					break;
				}
			}
		}
		/* A sink that decodes itself takes what it can; the first character it leaves (an emoji
		 * sequence, a mark it does not attach, an invalid byte, a wrap) is decoded by utf8_run, which
		 * then hands back (see there). */
		if (p->sink.print_utf8 && !p->u_need && !p->c1 && n - i >= 4) {
			i += p->sink.print_utf8(p->ctx, d + i, n - i);
			if (i == n || d[i] < 0x80)
				continue; /* the top of the loop takes ASCII and controls */
			uint32_t cp;
			unsigned props, len = n - i >= 4 ? vt_utf8_char(d + i, &cp, &props) : 0;
			if (len) {
				/* a valid character the sink left: straight to print, then back to the sink */
				print_cps(p, &cp, 1);
				i += len;
				continue;
			}
		}
		/* Returns at a control or before plain ASCII, with no sequence pending unless at n. */
		i = utf8_run(p, d, i, n);
	}
	return i;
}

/* ------------------------------------------------------------------------------------ transitions */

/* Performs the transition for d[i]; may consume more bytes of the same kind. Returns the next index. */
/* (inlined into both copies of the feed loop, as it was into the single one) */
/* A malformed DCS header: its string is swallowed (next), except after a '$' that begins the header (no
 * parameter, no marker before it): xterm 379 reads "DCS $ 1 q ST", "DCS $ LF q m ST", "DCS $ ! \" q ST" and
 * "DCS $ ST" as texts that start with '$' and are no DECRQSS, and answers CAN. Such a string is kept with
 * final 0 (no function has it), so the sink sees a '$' header that names nothing and its data (a NUL there
 * still voids it all). b is the byte that broke the header: a parameter byte or marker after an intermediate,
 * a control or DEL, the final after a third intermediate (hook), or, right after the intermediates, ESC (it
 * may start the ST that ends the string) or 8-bit ST; without a '$' to keep, those two act as anywhere else
 * (next is S_ESC or S_GROUND for them). Returns the state to go to. */
static __attribute__((noinline)) unsigned dcs_ignore(struct vt_parser *p, uint8_t b, unsigned next)
{
	const struct vt_csi *c = &p->csi;
	const bool dollar = c->n_intermediates && c->intermediates[0] == '$' && !c->n_params && !c->private_marker;
	const bool end = b == 0x1b || b == 0x9c;
	if (end && !dollar) {
		vt__str_release(p);
		seq_clear(p);
		return next;
	}
	vt__str_start(p, VT_STRING_DCS);
	if (b && dollar) {
		p->csi.final = 0;
		if (b == 0x9c) {
			p->str_bel = false;
			vt__str_end(p);
			return S_GROUND;
		}
		return b == 0x1b ? S_STR_ESC : S_DCS_PASS;
	}
	p->str_drop = true;
	return next;
}

static inline __attribute__((always_inline)) size_t step(struct vt_parser *p, const uint8_t *d, size_t i, size_t n)
{
	uint8_t b = d[i];
	uint8_t t = p->trans[p->state][b];
	unsigned next = t & 15u;

	switch ((enum action)(t >> 4)) {
	case A_NONE:
		break;
	case A_EXEC:
		/* a C0 control inside a sequence (a C1 one ends it: as in the ground state) */
		if (p->state != S_GROUND && b < 0x80 && p->sink.execute_in_seq)
			p->sink.execute_in_seq(p->ctx, b);
		else if (p->sink.execute)
			p->sink.execute(p->ctx, b);
		break;
	case A_COLLECT:
		collect(p, b);
		break;
	case A_PARAM:
		p->state = (uint8_t)next;
		return params(p, d, i, n);
	case A_ESC_DISPATCH:
		esc_dispatch(p, b);
		break;
	case A_CSI_DISPATCH:
		csi_dispatch(p, b);
		break;
	case A_CLEAR:
		seq_clear(p);
		break;
	case A_HOOK:
		if (p->ignore) {
			p->state = (uint8_t)dcs_ignore(p, b, S_DCS_IGNORE);
			return i + 1;
		}
		p->csi.final = b;
		vt__str_start(p, VT_STRING_DCS);
		p->str_drop = false;
		break;
	case A_DCS_IGNORE:
		p->state = (uint8_t)dcs_ignore(p, b, next);
		return i + 1;
	case A_PUT:
		return vt__put_run(p, d, i, n);
	case A_STR_START:
		vt__str_start(p, vt__str_kind_of(b));
		break;
	case A_STR_END:
		p->str_bel = b == 0x07;
		vt__str_end(p);
		break;
	case A_ESC:
		vt__str_release(p);
		seq_clear(p);
		break;
	case A_CANCEL:
		vt__str_release(p);
		nothing(p);
		break;
	case A_VOID:
		nothing(p);
		break;
	case A_REDO:
		vt__str_release(p);
		seq_clear(p);
		p->state = (uint8_t)next;
		return i; /* the same byte again, in the new state */
	}
	p->state = (uint8_t)next;
	return i + 1;
}

/* "ESC [" at d (two readable bytes) as one 16-bit compare: one load and one branch where the two byte tests
 * took two of each, on the tests of whether a sequence or text follows (csi -0.53 % instructions, the QEMU
 * guest's csi -0.58 %: docs/benchmarks.md, issue 2, session 18) */
static inline bool esc_csi(const uint8_t *d)
{
	static const uint8_t esc_lb[2] = {0x1b, '['};
	uint16_t w, k;
	memcpy(&w, d, 2);
	memcpy(&k, esc_lb, 2);
	return w == k;
}

/* A run of sequences from the bytes (vt_sink.csi_bytes), the first at s (after its "ESC [", length f, known to
 * be followed by "ESC [" or by text): each one's handler is called with the next one's length and final byte
 * (nxt = length | final << 8) found before the call, so that a mispredicted call to the next handler is
 * resolved at once, not after the 32-byte compare and the final's load (a mispredicted call after a
 * handler's own mispredictions waited for both). Returns the last one's ESC and its handler's result in *kp.
 * It calls what the loop would: the next sequence is tested as the loop tests it (the same bytes, the same
 * bulk bound, fixed for the feed call), its handler read from the table after this one's call,
 * and any result but "this sequence, nothing after it" (k == f: a declined sequence, a character taken)
 * ends the run and goes back to the loop (tests/grid/test-csi-run.c). */
static inline __attribute__((always_inline)) const uint8_t *csi_run(struct vt_parser *p, void *ctx,
								    const uint8_t *bulk, const uint8_t *s, size_t f,
								    size_t (*fin32)(const uint8_t *), size_t *kp)
{
	size_t fb = s[f - 1], k;
	for (;;) {
		const uint8_t *const nx = s + f;
		size_t nxt = 0;
		if (nx < bulk && esc_csi(nx)) {
			const size_t nf = fin32(nx + 2);
			if (nf <= 32)
				nxt = nf | (size_t)nx[1 + nf] << 8;
		}
		k = p->csi_tab[fb](ctx, s, f);
#if defined(__GNUC__)
		/* nx computed again, not kept across the call */
		__asm__("" : "+r"(f));
#endif
		if (k != f || !nxt)
			break;
		s += 2 + f;
		f = nxt & 0xff;
		fb = nxt >> 8;
	}
	*kp = k;
	return s - 2;
}

/* The ground state with no UTF-8 sequence pending, event by event, first byte by kind: a CSI, a run of
 * printable ASCII, a C0 control or UTF-8, each straight to its path (escape-heavy output alternates them
 * quickly). Every path here leaves the parser in that state (a sink that resets the parser leaves it there
 * too), so it is not checked again per event. Returns the index of a byte for the table machine, or len
 * (possibly with a UTF-8 sequence pending).
 * Walked by pointers (q, end, bulk), not by an index into data: csi_run then shares the bulk bound with the
 * loop and returns a pointer, so that fewer values live across its calls, and the text scans need neither
 * data nor len (with data on the stack: csi -1.34 %, ascii -0.25 %, scrolling -0.32 % instructions;
 * docs/benchmarks.md, issue 2, session 43). */
static inline __attribute__((always_inline)) size_t ground_events(struct vt_parser *p, const uint8_t *data, size_t i0,
								 size_t len, size_t (*fin32)(const uint8_t *),
								 const uint8_t *(*scan32)(const uint8_t *, const uint8_t *),
								 void (*clean32)(void))
{
	void (*const csi)(void *, const struct vt_csi *) = p->sink.csi;
	void (*const print_ascii)(void *, const uint8_t *, size_t) = p->sink.print_ascii;
	void (*const execute)(void *, uint8_t) = p->sink.execute;
	void *const ctx = p->ctx;
	/* csi_bytes wants "ESC [" and 32 bytes after it: sequences starting before bulk (data: none) */
	/* (and the byte after such a sequence: whether another one follows) */
	const size_t bulk_end = p->csi_tab_on && !p->c1 && len >= 2 + 33 ? len - (2 + 33) + 1 : 0;
	const uint8_t *const bulk = data + bulk_end, *const end = data + len;
	const uint8_t *q = data + i0;
	/* data only on the rare paths (the index returned, the parse of an unusual sequence, UTF-8), read from
	 * the stack there: kept in a register, it took one that csi_run's calls then had to free on each round
	 * trip from a text run (csi -0.8 % instructions with feed's copy below) */
	const uint8_t *volatile d0 = data;
	while (q < end) {
		uint8_t b = *q;
		if (b == 0x1b) {
			if (q < bulk) {
				if (q[1] != '[')
					return (size_t)(q - d0); /* (the test below, known to fail) */
				/* the sink's own path for the sequences it knows (vt_sink.csi_bytes), by final byte */
				const uint8_t *s = q + 2;
				size_t f = fin32(s), k; /* the length, final included */
				if (f <= 32) {
					/* the table read through p (its address p plus a constant, in the call's
					 * operand), not a copy of its address kept on the stack; the sink's
					 * csi_bytes not in 8-bit C1 mode: it may take the character after a
					 * sequence (see vt_sink) */
					const size_t fb = s[f - 1];
					/* a run (csi_run) from a sequence "ESC" follows, not from an SGR: SGRs
					 * come alone or in pairs before a cell (doom_fire), and a test of the
					 * byte after one would be random there */
					if (likely(fb == 'm') || likely(s[f] != 0x1b)) {
						k = p->csi_tab[fb](ctx, s, f);
					} else {
						/* (f copied here: GCC otherwise put f in csi_run's register before
						 * the test, a move on every SGR of doom_fire's and dense_cells') */
						size_t f2 = f;
						__asm__("" : "+r"(f2));
						q = csi_run(p, ctx, bulk, s, f2, fin32, &k);
					}
#if defined(__GNUC__)
					/* q is in a register the call keeps: without this, q + 1 and q + 2 computed
					 * before the call are kept across it, on the stack */
					__asm__("" : "+r"(q));
#endif
					if (likely(k)) {
						q += 2 + k;
						continue;
					}
				}
				goto parse; /* "ESC [" at q, before bulk */
			}
			if (p->csi_tab_on && !p->c1)
				return (size_t)(q - d0); /* within 2 + 33 bytes of the end: feed's vt__csi_tail (no call here) */
			if ((size_t)(end - q) > 1 && q[1] == '[') {
				size_t j, i;
parse:
				i = (size_t)(q - d0);
				j = vt__fast_csi(p, d0, i, len);
				if (j != i) {
					if (csi)
						csi(ctx, &p->csi);
					q = d0 + j;
					/* vt_parser_stop (REP, the rectangles, DECSLRM): a break to the loop's
					 * return; `return j` here cost csi +0.12 % under callgrind (the loop's
					 * registers), though this path never runs there */
					if (unlikely(p->stop))
						break;
					continue;
				}
			}
			return (size_t)(q - d0);
		}
		if ((unsigned)b - 0x20u < 0x5fu) {
			const uint8_t *s = q;
#if defined(__GNUC__)
			/* (opaque: without it GCC's allocation of the text path costs ascii and scrolling ~0.5 % more) */
			__asm__("" : "+r"(s));
#endif
			/* scan32 may leave the vector registers' upper halves dirty (scan_printable_32_avx2): fin32
			 * clears them where a CSI follows the text, clean32 where not, before any call */
			if (q + 1 < end && q[1] == 0x1b)
				q++; /* one character between sequences: nothing to scan */
			else
				q = scan32(q + 1, end);
			if (!print_ascii)
				continue; /* (upper halves left dirty: no such sink in this program, and the
					   * results are the same; clearing them here costs every text run a
					   * register more, the compiler's allocation of the whole loop changes) */
			if (q < bulk && esc_csi(q)) {
				/* a CSI after the text: its length found before the text's call, and the
				 * run of sequences from it (csi_run) */
				const size_t f = fin32(q + 2);
				if (f <= 32) {
					size_t k;
					print_ascii(ctx, s, (size_t)(q - s));
					q = csi_run(p, ctx, bulk, q + 2, f, fin32, &k);
					if (likely(k)) {
						q += 2 + k;
						continue;
					}
					goto parse;
				}
			}
			clean32();
			print_ascii(ctx, s, (size_t)(q - s));
			continue;
		}
		if (b < 0x20) {
			/* CAN or SUB, tested as one (b - 0x18 is 0 or 2): `b == 0x18 || b == 0x1a` made GCC copy b
			 * on every control of this loop (ascii +0.5 % instructions) */
			if ((((unsigned)b - 0x18u) & ~2u) == 0)
				return (size_t)(q - d0);
			if (execute)
				execute(ctx, b);
			q++;
			continue;
		}
		if (b < 0x80 || (p->c1 && b < 0xa0))
			return (size_t)(q - d0); /* DEL, or a raw C1 control */
		if ((size_t)(end - q) >= 4 && q[3] < 0x20 && b - 0xe0u < 0x10u && !p->c1) {
			/* one 3-byte character alone before a control (a colour animation's U+2580 cells):
			 * ground_run's one-character path, without its set-up */
			uint32_t c1 = q[1] ^ 0x80u, c2 = q[2] ^ 0x80u;
			uint32_t cp = (b & 0x0fu) << 12 | c1 << 6 | c2;
			if ((c1 | c2) < 0x40 && cp >= 0x800 && cp - 0xd800 >= 0x800) {
				print_cps(p, &cp, 1);
				q += 3;
				continue;
			}
		}
		q = d0 + ground_run(p, d0, (size_t)(q - d0), len); /* UTF-8: consumes at least this byte */
		if (p->u_need)
			return (size_t)(q - d0);
	}
	return (size_t)(q - d0);
}

/* The feed loop, with fin32, scan32 and clean32 the final_in_32, scan_printable_32 and clearing of its copy. */
static inline __attribute__((always_inline)) size_t feed(struct vt_parser *p, const uint8_t *data, size_t len,
							 size_t (*fin32)(const uint8_t *),
							 const uint8_t *(*scan32)(const uint8_t *, const uint8_t *),
							 void (*clean32)(void))
{
	size_t i = 0;
	/* read from the stack (see ground_events' d0): not a register kept across the loop's events */
	const uint8_t *volatile dv = data;
	while (i < len) {
		if (likely(p->state == S_GROUND && !p->u_need)) {
			i = ground_events(p, dv, i, len, fin32, scan32, clean32);
			if (i == len || unlikely(p->stop))
				break; /* (a stop: not even a cut sequence's tail held back) */
			if (dv[i] == 0x1b && p->csi_tab_on && !p->c1) {
				const size_t j = vt__csi_tail(p, dv, i, len);
				if (j != i) {
					i = j;
					continue; /* (a stop: vt__fast_csi's test, or the loop's after step) */
				}
			}
		} else if (p->state == S_GROUND) {
			/* the rest of a UTF-8 sequence split across feeds */
			i = ground_run(p, dv, i, len);
			continue;
		}
		i = step(p, dv, i, len);
		/* (once per byte of the generic paths: ESC sequences, cut ones, strings) */
		if (unlikely(p->stop))
			break;
	}
	return i;
}

/* The copies of feed are page-aligned: the hot loop (ground_events, inlined) then lies in one 4 KiB page. An
 * emulator's translator (QEMU's TCG, the VM guests of issue 5) chains a direct branch to the next block only
 * within the page the block starts on; a branch across a page goes through a look-up helper of ~70
 * instructions. The loop straddling a page cost the guest's csi parse 3% (docs/benchmarks.md, issue 2,
 * session 8); the host sees no difference. */
#if defined(__GNUC__)
__attribute__((aligned(4096), noinline))
#endif
static size_t feed_base(struct vt_parser *p, const uint8_t *data, size_t len)
{
	return feed(p, data, len, final_in_32, scan_printable_32, no_clean);
}

#if defined(HAVE_FEED_AVX2)
__attribute__((aligned(4096), noinline)) static size_t feed_avx2(struct vt_parser *p, const uint8_t *data, size_t len)
{
	return feed(p, data, len, final_in_32_avx2, scan_printable_32_avx2, vzeroupper);
}
#endif

/* The table machine over d[0..n) (vt__carry_feed's replay of a held-back sequence's bytes). */
__attribute__((noinline)) void vt__steps(struct vt_parser *p, const uint8_t *d, size_t n)
{
	for (size_t i = 0; i < n;)
		i = step(p, d, i, n);
}

size_t vt_parser_feed(struct vt_parser *p, const uint8_t *data, size_t len)
{
	size_t j = 0;
	p->stop = false;
	if (unlikely(p->carry_n) && len) {
		j = vt__carry_feed(p, data, len);
		if (unlikely(p->stop))
			return j; /* (the carry's replay dispatched the sequence that stopped it) */
	}
#if defined(HAVE_FEED_AVX2)
	if (p->avx2)
		return j + feed_avx2(p, data + j, len - j);
#endif
	return j + feed_base(p, data + j, len - j);
}

void vt_parser_stop(struct vt_parser *p)
{
	p->stop = true;
}
