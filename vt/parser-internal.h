/* vt/parser-internal.h: the parser's state, shared by parser.c and parser-csi.c (the bulk CSI path). Not
 * part of vt/'s public interface. */
#ifndef VT_PARSER_INTERNAL_H
#define VT_PARSER_INTERNAL_H

#include <stddef.h>
#include <stdlib.h>
#include <string.h>
#if defined(__SSE2__)
#include <emmintrin.h>
#endif

#include "vt/vt.h"

#if defined(__GNUC__)
#define likely(x) __builtin_expect(!!(x), 1)
#define unlikely(x) __builtin_expect(!!(x), 0)
#else
#define likely(x) (x)
#define unlikely(x) (x)
#endif

enum state {
	S_GROUND,
	S_ESC,
	S_ESC_INTER,
	S_CSI_ENTRY,
	S_CSI_PARAM,
	S_CSI_INTER,
	S_CSI_IGNORE,
	S_DCS_ENTRY,
	S_DCS_PARAM,
	S_DCS_INTER,
	S_DCS_PASS,
	S_DCS_IGNORE,
	S_OSC,
	S_SOS_PM_APC,
	S_STR_ESC, /* ESC seen inside a string: '\' ends it (ST), anything else abandons it */
	S_COUNT,
	S_KEEP = 15, /* in the range lists: stay in the current state */
};

enum action {
	A_NONE,         /* ignore the byte */
	A_EXEC,         /* C0/C1 control to the sink */
	A_COLLECT,      /* intermediate byte, or private marker when 0x3c..0x3f */
	A_PARAM,        /* digit, ';' or ':' */
	A_ESC_DISPATCH,
	A_CSI_DISPATCH,
	A_CLEAR,        /* start of a CSI or DCS header */
	A_HOOK,         /* final byte of a DCS header: start collecting the string */
	A_DCS_IGNORE,   /* malformed DCS header: swallow the string (dcs_ignore: one sink case kept) */
	A_PUT,          /* string byte */
	A_STR_START,    /* OSC, SOS, PM, APC introducer */
	A_STR_END,      /* ST or BEL (OSC): deliver the string */
	A_ESC,          /* ESC: abandon whatever was in progress, start a sequence */
	A_CANCEL,       /* CAN, SUB: abandon, back to ground */
	A_REDO,         /* abandon, go to the target state and handle this byte again there */
	A_VOID,         /* a byte that does nothing (DEL in the ground state, csi_ignore's final): tell the sink */
};

/* The CSI memo (vt__fast_csi): slots, bytes of a key (after ESC [, final included), parameters kept. */
#define MEMO_SLOTS 512
#define MEMO_KEY 32
#define MEMO_PARAMS 12
#if defined(__SSE2__) && defined(__GNUC__)
struct memo {
	__m128i a, b; /* the key, zero after the final byte; all zero when the slot is empty */
	int32_t params[MEMO_PARAMS];
	/* a copy of vt_csi's fields from sub_mask up to seq_id (n_params, marker, intermediates, final) */
	uint8_t hdr[offsetof(struct vt_csi, seq_id) - offsetof(struct vt_csi, sub_mask)];
	uint64_t id;
};
#endif

/* Decoded code points are handed to the sink in batches of this many. */
#define PRINT_BUF 256
#define STRING_CAP_DEFAULT (1u << 20)
/* A string buffer grown beyond this is freed once its string ends (huge strings are rare). */
#define STRING_KEEP 65536

struct vt_parser {
	struct vt_sink sink;
	void *ctx;
	bool c1;
	uint8_t state;

	/* UTF-8 decoder, ground state only: code point so far, continuation bytes still needed, and the
	 * allowed range of the next byte (narrower than 0x80..0xbf right after some lead bytes). */
	uint32_t u_cp;
	uint8_t u_need, u_lo, u_hi;

	/* The sequence being collected. cur points at the parameter being written, or at dummy once the
	 * parameters overflowed; NULL before the first parameter byte. */
	struct vt_csi csi;
	int32_t *cur;
	int32_t dummy;
	bool ignore; /* too many intermediates */

	/* String (OSC/DCS/APC/PM/SOS) being collected; buf has room for a terminating NUL. */
	uint8_t *str;
	size_t str_len, str_alloc, str_cap;
	bool str_drop;
	bool str_bel; /* the string being delivered ended with BEL, not ST (vt_parser_string_bel) */
	/* The first two bytes of a string dropped over the cap (0 where it had fewer; vt_parser_string_dropped),
	 * kept through its end; in what was padding before str_kind */
	uint8_t str_head[2];
	enum vt_string_kind str_kind;

	/* The sink's csi_bytes per final byte, never NULL (no_csi_bytes for the finals the sink does not take),
	 * from vt_sink.csi_bytes_final or csi_bytes; csi_tab_on when either is set. Indexed by the byte itself
	 * (finals are 0x40..0x7f; the rest hold no_csi_bytes): no mask between the final's load and the call's. */
	vt_csi_bytes_fn csi_tab[256];
	bool csi_tab_on;
	/* A CSI cut by the end of a feed in the ground state, held back whole (vt__csi_tail): its bytes from
	 * the ESC (carry_n of them, 0: none), parameter and intermediate bytes only after "ESC [" */
	uint8_t carry_n;
	uint8_t carry[2 + 32];
	/* vt_parser_feed's copy for CPUs with AVX2 (set at creation unless vt__no_avx2) */
	bool avx2;
	/* vt_parser_stop was called during this feed: it returns at the next event's start (cleared by each feed) */
	bool stop;

	/* trans[state][byte] = action << 4 | next state. */
	uint8_t trans[S_COUNT][256];

#if defined(__SSE2__) && defined(__GNUC__)
	uint64_t memo_ids; /* the last seq_id given */
	struct memo memo[MEMO_SLOTS];
#endif
};

/* Strings (parser-string.c): the buffer given back (kept when small), a string started, the string's
 * bytes from d[i] on that stay in the current state appended (returns the next index), the string
 * delivered to the sink, and the kind an introducer byte (']', 'X', '^', '_' or their C1 forms) starts. */
void vt__str_release(struct vt_parser *p);
void vt__str_start(struct vt_parser *p, enum vt_string_kind kind);
size_t vt__put_run(struct vt_parser *p, const uint8_t *d, size_t i, size_t n);
void vt__str_end(struct vt_parser *p);
enum vt_string_kind vt__str_kind_of(uint8_t b);

/* The bulk CSI path (parser-csi.c): when a whole "ESC [ ... final" lies in d[i..n) it is parsed into p->csi
 * (with seq_id set) and the index after its final byte is returned; otherwise i, and the table machine
 * takes the sequence from its ESC. Also i after vt_parser_stop (a stop that a dispatch outside the ground
 * state's loop asked for, the feed's tail: the loop returns there, and the feed loop sees p->stop). */
size_t vt__fast_csi(struct vt_parser *p, const uint8_t *d, size_t i, size_t n);

/* The length of a CSI's bytes after "ESC [" up to its final byte (the first byte in 0x40..0x7f) when that lies
 * in s[0..32), otherwise 33. */
static inline size_t final_in_32(const uint8_t *s)
{
#if defined(__SSE2__) && defined(__GNUC__)
	const __m128i lo = _mm_set1_epi8(0x3f);
	__m128i v = _mm_loadu_si128((const __m128i *)(const void *)s);
	unsigned m = (unsigned)_mm_movemask_epi8(_mm_cmpgt_epi8(v, lo));
	if (likely(m))
		return (unsigned)__builtin_ctz(m) + 1u;
	v = _mm_loadu_si128((const __m128i *)(const void *)(s + 16));
	m = (unsigned)_mm_movemask_epi8(_mm_cmpgt_epi8(v, lo));
	return m ? 17u + (unsigned)__builtin_ctz(m) : 33;
#else
	unsigned k = 0;
	while (k < 32 && (s[k] < 0x40 || s[k] > 0x7f))
		k++;
	return k + 1;
#endif
}

/* An "ESC" at data[i] in the ground state with the sink's csi_bytes on and no 8-bit C1 (parser-csi.c): within
 * 2 + 33 bytes of len, the index after what the sink's csi_bytes took of the whole sequence there, or len when
 * the sequence is cut by the end and held back in p->carry, or after it parsed (vt__fast_csi and the sink's
 * csi); otherwise i (the table machine then goes on with it). */
size_t vt__csi_tail(struct vt_parser *p, const uint8_t *data, size_t i, size_t len);
/* A held-back sequence (p->carry_n != 0) completed by the next feed's bytes (len >= 1): the number of them
 * taken; or 0, its bytes replayed through the table machine (vt__steps), which goes on with data[0]. */
size_t vt__carry_feed(struct vt_parser *p, const uint8_t *data, size_t len);
void vt__steps(struct vt_parser *p, const uint8_t *d, size_t n);

/* Fills p->trans from the per-state range lists of vt/parser-table.c, with 8-bit C1 when p->c1 is set. */
void vt__parser_build_table(struct vt_parser *p);

#endif
