/* vt/parser-csi.c: the parser's bulk CSI path (see parser.c for the state machine it shortcuts). */
#include "vt/parser-internal.h"

/* Bulk CSI: when a whole "ESC [ [marker] [params] [intermediates] final" lies in d[i..n), it is parsed in
 * one loop here instead of byte by byte through the table. Anything unusual (a C0 control or DEL inside,
 * too many parameters or intermediates, a malformed sequence, the end of the buffer) returns i unchanged,
 * and the table machine takes the sequence from its ESC: both paths give the same result. */
/* The value of a parameter of more than 4 digits, clamped. */
static int32_t clamp_digits(const uint8_t *s, size_t len)
{
	uint32_t v = 0;
	for (size_t k = 0; k < len; k++) {
		v = v * 10 + (uint32_t)(s[k] - '0');
		if (v > VT_PARAM_MAX)
			return VT_PARAM_MAX;
	}
	return (int32_t)v;
}

/* The index of the first byte at or after j that is not a parameter byte (0x30..0x3b), or n when there
 * is none in the buffer or the parameters are longer than 31 bytes (left to the table machine; this bounds
 * the number of parameters by 32 without counting). */
static inline size_t params_end(const uint8_t *d, size_t j, size_t n)
{
	size_t lim = n - j > 31 ? j + 31 : n;
#if defined(__SSE2__) && defined(__GNUC__)
	/* Two 16-byte blocks cover the 31 bytes; they may read past lim, never past n. */
	const __m128i lo = _mm_set1_epi8(0x2f), hi = _mm_set1_epi8(0x3c);
	for (; n - j >= 16 && j < lim; j += 16) {
		__m128i v = _mm_loadu_si128((const __m128i *)(const void *)(d + j));
		__m128i in = _mm_and_si128(_mm_cmpgt_epi8(v, lo), _mm_cmplt_epi8(v, hi));
		unsigned m = ~(unsigned)_mm_movemask_epi8(in) & 0xffffu;
		if (m) {
			size_t e = j + (unsigned)__builtin_ctz(m);
			return e < lim ? e : n;
		}
	}
	if (j >= lim)
		return n;
#endif
	for (; j < lim; j++)
		if (d[j] < 0x30 || d[j] > 0x3b)
			return j;
	return n;
}

/* Parses "ESC [ [marker] [params] [intermediates] final" at d[i] into p->csi without dispatching it.
 * Returns the index after the final byte, or i when the sequence is unusual or incomplete. */
static inline size_t parse_csi(struct vt_parser *p, const uint8_t *d, size_t i, size_t n)
{
	struct vt_csi *c = &p->csi;
	size_t j = i + 2;
	if (j >= n)
		return i;
	uint8_t b = d[j];
	c->private_marker = 0;
	if (b >= 0x3c && b <= 0x3f) {
		c->private_marker = b;
		if (++j >= n)
			return i;
		b = d[j];
	}
	unsigned np = 0;
	uint32_t sub = 0;
	if (b >= '0' && b <= ';') {
		/* d[end] is in the buffer and not a parameter byte: no bounds checks below. */
		size_t end = params_end(d, j, n);
		if (end >= n)
			return i;
		for (;;) {
			size_t s0 = j;
			uint32_t u = 0;
			unsigned dd;
			while ((dd = (unsigned)d[j] - '0') < 10) {
				u = u * 10 + dd; /* may wrap for long numbers: recomputed below */
				j++;
			}
			/* At most 31 parameter bytes (params_end): at most 32 parameters, no overflow check. */
			size_t len = j - s0;
			if (len - 1 < 4)
				c->params[np++] = (int32_t)u;
			else
				c->params[np++] = len ? clamp_digits(d + s0, len) : VT_PARAM_DEFAULT;
			if (j == end)
				break;
			if (unlikely(d[j] == ':'))
				sub |= 1u << np;
			j++;
		}
		b = d[j];
	}
	unsigned ni = 0;
	while (b >= 0x20 && b <= 0x2f) {
		if (ni == sizeof(c->intermediates))
			return i;
		c->intermediates[ni++] = b;
		if (++j >= n)
			return i;
		b = d[j];
	}
	if (b < 0x40 || b > 0x7e)
		return i;
	c->n_params = (uint8_t)np;
	c->sub_mask = sub;
	c->n_intermediates = (uint8_t)ni;
	c->overflow = false;
	c->final = b;
	return j + 1;
}

#if defined(__SSE2__) && defined(__GNUC__)
/* With SSE2 a sequence whose final byte lies within 32 bytes after ESC [ is taken from two 16-byte loads:
 * the final byte, the parameter bytes, separators and intermediates are found as bit masks, and each
 * parameter of up to 4 digits is converted from one 4-byte load (SWAR) instead of digit by digit.
 *
 * The memo: a sequence whose bytes (after ESC [, up to the final byte) were parsed before is found by those
 * bytes and copied instead of parsed again (programs repeat a few SGRs and cursor moves over and over). */
static const uint8_t lead_ones[64] = {
	0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff,
	0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff,
};

static inline unsigned mask32(__m128i a, __m128i b)
{
	return (unsigned)_mm_movemask_epi8(a) | (unsigned)_mm_movemask_epi8(b) << 16;
}

/* Bytes in [lo, hi], both below 0x80 (bytes >= 0x80 are negative to the signed compares). */
static inline __m128i in_range(__m128i v, char lo, char hi)
{
	return _mm_and_si128(_mm_cmpgt_epi8(v, _mm_set1_epi8((char)(lo - 1))),
			     _mm_cmplt_epi8(v, _mm_set1_epi8((char)(hi + 1))));
}

/* The value of the len (1..4) digits ending just before q[e]; reads q[e - 4..e - 1] (the bytes before the
 * digits are masked off). */
static inline int32_t swar_param(const uint8_t *q, unsigned e, unsigned len)
{
	uint32_t w;
	memcpy(&w, q + e - 4, 4);
	uint32_t x = (w ^ 0x30303030u) & (uint32_t)(0xffffffff00000000ull >> (8 * len));
	x = (x * 10 + (x >> 8)) & 0x00ff00ffu; /* byte 0: thousands and hundreds, byte 2: tens and units */
	return (int32_t)((x * (1u + (100u << 16))) >> 16);
}

/* The sequence from the masked bytes q[0..f] (final at q[f], f < 32) into p->csi. Returns false when it
 * is not the plain shape (marker, parameters, at most 2 intermediates, final). */
static inline bool parse_masked(struct vt_parser *p, const uint8_t *q, __m128i a, __m128i b, unsigned f)
{
	struct vt_csi *c = &p->csi;
	if (unlikely(q[f] == 0x7f))
		return false; /* DEL inside a sequence is ignored: the table machine skips it */
	unsigned start = 0;
	c->private_marker = 0;
	if (q[0] >= 0x3c && q[0] <= 0x3f) {
		c->private_marker = q[0];
		start = 1;
	}
	unsigned pm = mask32(in_range(a, 0x30, 0x3b), in_range(b, 0x30, 0x3b));
	unsigned pe = (unsigned)__builtin_ctz(~(pm >> start)) + start; /* end of the parameter bytes */
	unsigned ni = f - pe;
	if (ni) {
		unsigned im = mask32(in_range(a, 0x20, 0x2f), in_range(b, 0x20, 0x2f)) >> pe;
		if (ni > sizeof(c->intermediates) || (im & ((1u << ni) - 1)) != (1u << ni) - 1)
			return false;
		c->intermediates[0] = q[pe];
		c->intermediates[1] = q[pe + 1];
	}
	unsigned np = 0;
	uint32_t sub = 0;
	if (pe > start) {
		const __m128i semi = _mm_set1_epi8(';'), colon = _mm_set1_epi8(':');
		__m128i ca = _mm_cmpeq_epi8(a, colon), cb = _mm_cmpeq_epi8(b, colon);
		unsigned below = (1u << pe) - 1;
		unsigned cm = mask32(ca, cb) & below;
		unsigned sm = (mask32(_mm_or_si128(_mm_cmpeq_epi8(a, semi), ca), _mm_or_si128(_mm_cmpeq_epi8(b, semi), cb)) &
			       below) | (1u << pe);
		/* at most 31 parameter bytes: at most 32 parameters */
		for (unsigned s = start; sm; sm &= sm - 1) {
			unsigned e = (unsigned)__builtin_ctz(sm), len = e - s;
			int32_t v;
			if (likely(len - 1 < 4))
				v = swar_param(q, e, len);
			else
				v = len ? clamp_digits(q + s, len) : VT_PARAM_DEFAULT;
			c->params[np++] = v;
			if (unlikely(cm >> e & 1))
				sub |= 1u << np;
			s = e + 1;
		}
	}
	c->n_params = (uint8_t)np;
	c->sub_mask = sub;
	c->n_intermediates = (uint8_t)ni;
	c->overflow = false;
	c->final = q[f];
	return true;
}

/* A sequence not in the memo: parsed from its masked bytes, then remembered in m (the older of its two
 * places). Returns the index after it, or i. Out of line, so that vt__fast_csi's path for sequences found in the
 * memo needs no saved registers. */
__attribute__((noinline)) static size_t csi_miss(struct vt_parser *p, const uint8_t *d, size_t i, __m128i a,
						 __m128i b, unsigned f, struct memo *m)
{
	struct vt_csi *c = &p->csi;
	if (!parse_masked(p, d + i + 2, a, b, f))
		return i;
	c->seq_id = 0;
	if (c->n_params <= MEMO_PARAMS) {
		m->a = a;
		m->b = b;
		memcpy(m->params, c->params, sizeof(m->params));
		memcpy(&m->hdr, &c->sub_mask, sizeof(m->hdr));
		m->id = c->seq_id = ++p->memo_ids;
	}
	return i + 3 + f;
}

/* Sequences near the end of the buffer or longer than 32 bytes: parsed byte by byte. */
__attribute__((noinline)) static size_t csi_slow(struct vt_parser *p, const uint8_t *d, size_t i, size_t n)
{
	p->csi.seq_id = 0;
	return parse_csi(p, d, i, n);
}

/* The memo lookup of the sequence at d[i] (key a, b; lo, hi: its two words for the hash; final at
 * d[i + 2 + f]), then the copy of a hit into p->csi, or the miss path. */
static inline __attribute__((always_inline)) size_t memo_lookup(struct vt_parser *p, const uint8_t *d, size_t i,
								__m128i a, __m128i b, uint64_t lo, uint64_t hi,
								unsigned f)
{
	struct vt_csi *c = &p->csi;
	uint64_t h = (lo ^ (hi * 0x9e3779b97f4a7c15ull)) * 0xc2b2ae3d27d4eb4full;
	/* two places a key may be in (from the top bits, which depend on every key byte): a new key replaces
	 * the older of the two, so a few keys sharing a place do not evict each other all the time */
	_Static_assert(MEMO_SLOTS == 512, "the places take 9 bits of the hash each");
	struct memo *m = &p->memo[h >> 55];
	__m128i eq = _mm_and_si128(_mm_cmpeq_epi8(a, m->a), _mm_cmpeq_epi8(b, m->b));
	if (unlikely(_mm_movemask_epi8(eq) != 0xffff)) {
		struct memo *m2 = &p->memo[h >> 46 & 511];
		eq = _mm_and_si128(_mm_cmpeq_epi8(a, m2->a), _mm_cmpeq_epi8(b, m2->b));
		if (_mm_movemask_epi8(eq) != 0xffff)
			return csi_miss(p, d, i, a, b, f, m2->id < m->id ? m2 : m);
		m = m2;
	}
	memcpy(c->params, m->params, sizeof(m->params));
	memcpy(&c->sub_mask, &m->hdr, sizeof(m->hdr));
	c->seq_id = m->id;
	return i + 3 + f;
}

/* Parses the sequence at d[i] (ESC [) into p->csi, through the memo when it can. Returns the index after
 * it, or i when it is unusual or incomplete (the table machine takes it then). In its own file and out of
 * line: inlined into the feed loop its locals spill to the stack. */
size_t vt__fast_csi(struct vt_parser *p, const uint8_t *d, size_t i, size_t n)
{
	if (unlikely(p->stop))
		return i; /* see vt__fast_csi's declaration */
	/* the loads read 32 bytes after ESC [, and the parameter loads up to 3 bytes before them */
	if (unlikely(n - i < 2 + MEMO_KEY || i < 2))
		return csi_slow(p, d, i, n);
	const uint8_t *q = d + i + 2;
	__m128i a = _mm_loadu_si128((const __m128i *)(const void *)q), b;
	/* the final byte: the first one in 0x40..0x7f (DEL makes the sequence fail below, never memoized) */
	const __m128i f_lo = _mm_set1_epi8(0x3f);
	unsigned f, fm = (unsigned)_mm_movemask_epi8(_mm_cmpgt_epi8(a, f_lo));
	uint64_t lo, hi;
	if (likely(fm)) {
		/* most sequences end within 16 bytes: the second half of the key is zero */
		f = (unsigned)__builtin_ctz(fm);
		a = _mm_and_si128(a, _mm_loadu_si128((const __m128i *)(const void *)(lead_ones + 31 - f)));
		b = _mm_setzero_si128();
		lo = (uint64_t)_mm_cvtsi128_si64(a);
		hi = (uint64_t)_mm_cvtsi128_si64(_mm_unpackhi_epi64(a, a));
	} else {
		b = _mm_loadu_si128((const __m128i *)(const void *)(q + 16));
		fm = (unsigned)_mm_movemask_epi8(_mm_cmpgt_epi8(b, f_lo));
		if (unlikely(!fm))
			return csi_slow(p, d, i, n);
		f = 16 + (unsigned)__builtin_ctz(fm);
		b = _mm_and_si128(b, _mm_loadu_si128((const __m128i *)(const void *)(lead_ones + 47 - f)));
		__m128i x = _mm_xor_si128(a, _mm_shuffle_epi32(b, 0x4e));
		lo = (uint64_t)_mm_cvtsi128_si64(x);
		hi = (uint64_t)_mm_cvtsi128_si64(_mm_unpackhi_epi64(x, x));
	}
	return memo_lookup(p, d, i, a, b, lo, hi, f);
}
#else
size_t vt__fast_csi(struct vt_parser *p, const uint8_t *d, size_t i, size_t n)
{
	if (unlikely(p->stop))
		return i; /* see vt__fast_csi's declaration */
	p->csi.seq_id = 0;
	return parse_csi(p, d, i, n);
}
#endif

/* ------------------------------------------------------------------------- the end of a feed */

/* A PTY hands a terminal at most 4 KiB a read (n_tty), so escape-heavy output ends nearly every feed inside
 * or just before a sequence. Parsed (vt__fast_csi, or the table machine for a cut one, then the sink's
 * generic csi()), each such sequence ran a dozen functions once a read: in an emulated guest (issue 5) that is
 * a TB look-up, a TLB refill and a jump-cache miss apiece after every read's address-space switch
 * (docs/benchmarks.md, issue 5, session 20). Here the sink's csi_bytes takes them from a copy padded with 0xff
 * (above 0x7f: never a final, a C0 control or printable, so no handler takes a character past the copy's
 * end), and a cut sequence is held back until the next feed completes it. */

/* The bytes after "ESC [" in buf (2 + 32 readable) that the feed had (have of them): the sink's path when the
 * final is among them: the bytes it took after "ESC [" (0: declined); -1 when there is no final. */
static inline ptrdiff_t tail_bytes(struct vt_parser *p, const uint8_t *s, size_t have)
{
	const size_t f = final_in_32(s);
	if (f > have || f > 32)
		return -1; /* (33: none in the 32 bytes, though a held-back one may have more) */
	return (ptrdiff_t)p->csi_tab[s[f - 1]](p->ctx, s, f);
}

/* A copy of a few bytes in a loop: no call to the C library's memcpy (in an emulated guest its PLT jump, its
 * own code and its return cost three TB look-ups). */
static inline void copy_short(uint8_t *to, const uint8_t *from, size_t n)
{
	for (size_t j = 0; j < n; j++) {
		to[j] = from[j];
#if defined(__GNUC__)
		__asm__("" : "+r"(j)); /* not made into a memcpy call */
#endif
	}
}

/* Whether d[0..n) are parameter or intermediate bytes only (what a held-back sequence may hold after "ESC [":
 * the table machine only collects them, so holding them back changes nothing the sink sees). */
static inline bool params_only(const uint8_t *d, size_t n)
{
	for (size_t j = 0; j < n; j++)
		if (d[j] - 0x20u >= 0x20u)
			return false;
	return true;
}

__attribute__((noinline)) size_t vt__csi_tail(struct vt_parser *p, const uint8_t *data, size_t i, size_t len)
{
	const size_t rest = len - i;
	if (rest > 2 + 32 || (rest > 1 && data[i + 1] != '['))
		return i;
	uint8_t buf[2 + 64];
	memset(buf, 0xff, sizeof(buf));
	copy_short(buf, data + i, rest);
	if (rest > 2) {
		const ptrdiff_t k = tail_bytes(p, buf + 2, rest - 2);
		if (k > 0)
			return i + 2 + (size_t)k;
		if (k == 0)
			goto parse;
	}
	/* no final yet: held back when it may still end within 32 bytes */
	if (rest < 2 + 32 && params_only(data + i + 2, rest > 2 ? rest - 2 : 0)) {
		copy_short(p->carry, data + i, rest);
		p->carry_n = (uint8_t)rest;
		return len;
	}
parse:
	/* the parsed path, as the feed loop's for a sequence before the end */
	if (rest > 1) {
		const size_t j = vt__fast_csi(p, data, i, len);
		if (j != i) {
			if (p->sink.csi)
				p->sink.csi(p->ctx, &p->csi);
			return j;
		}
	}
	return i;
}

__attribute__((noinline)) size_t vt__carry_feed(struct vt_parser *p, const uint8_t *data, size_t len)
{
	const size_t c = p->carry_n;
	/* the carry (at most 2 + 31 bytes) and up to 48 of data: the bytes after "ESC [" and tail_bytes' 32-byte
	 * look-ahead always lie inside */
	uint8_t buf[2 + 32 + 48];
	memset(buf, 0xff, sizeof(buf));
	const size_t take = len < 48 ? len : 48, have = c + take;
	copy_short(buf, p->carry, c);
	copy_short(buf + c, data, take);
	if (buf[1] == '[') {
		if (have > 2) {
			const ptrdiff_t k = tail_bytes(p, buf + 2, have - 2);
			if (k > 0) {
				p->carry_n = 0;
				return 2 + (size_t)k - c; /* the final is in data: k > c - 2 */
			}
			if (k == 0)
				goto replay;
		}
		/* still no final: all of data is held back too while that may still end within 32 bytes */
		const size_t from = c > 2 ? c : 2; /* data's bytes after "ESC [" */
		if (have < 2 + 32 && params_only(buf + from, have - from)) {
			copy_short(p->carry + c, data, len);
			p->carry_n = (uint8_t)have;
			return len;
		}
	}
replay:
	p->carry_n = 0;
	vt__steps(p, p->carry, c);
	return 0;
}
