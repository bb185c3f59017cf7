/* tests/vt/parser-bytes.c: the parser's paths that take CSI sequences from their bytes (the memo of
 * repeated sequences, vt_sink.csi_bytes_final, the final byte found in one 32-byte compare, the text runs
 * between sequences), each against the events of the same stream fed byte by byte, with both copies of the
 * feed loop. */
#include <assert.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "tests/vt/trace.h"

/* The CSI memo (a repeated sequence is found by its bytes instead of parsed again): a long stream of
 * sequences that differ in one byte, in the marker, intermediates or sub-parameters, or only after the
 * first byte that could end them, fed whole must give the events it gives byte by byte (where nothing is
 * memoized), and every seq_id must stand for one sequence only. */
static const char *const memo_units[] = {
	CSI "48;2;7;7;7m", CSI "48;2;7;7;8m", CSI "48;2;7;7;7m ", CSI "38;2;7;7;7m", CSI "48:2:7:7:7m",
	CSI "48;2;7;7;7;m", CSI "?48;2;7;7;7m", CSI ">48;2;7;7;7m", CSI "48;2;7;7;7 m", CSI "48;2;7;7;7$m",
	CSI "48;2;7;7;7n", CSI "m", CSI ";m", CSI "0m", CSI "1;3;4m", CSI "38;5;102;48;5;253;1;3;4m",
	CSI "38;5;102;48;5;253;1;3;5m", CSI "38;5;102;48;5;253;1;3;4;5;6m", /* 29 bytes after ESC [ */
	CSI "1;2;3;4;5;6;7;8;9;10;11;12;13m", CSI "1;2;3;4;5;6;7;8;9;10;11;12m", /* 13 and 12 params */
	CSI "1;22;333;4444;55555;666666;7m", CSI "1;2;3;4;5;6;7;8;9;0;1;2;3;4;5;6m", /* 32-byte key */
	CSI "1;2;3;4;5;6;7;8;9;0;1;2;3;4;5;67m", CSI "1;2;3;4;5;6;7;8;9;0;1;2;3;4;5;6;7m", /* 33, 34 */
	CSI "1\n2H", CSI "1\x7f" "2H", CSI "12H", CSI "1;2H", CSI "2;1H", CSI "H", CSI "?25h", CSI "?25l",
	CSI "1?2h", CSI "1 2h", CSI " !\"p", CSI "!p", CSI "2 q", CSI "38:2::1:2:3m", CSI "4:3m", CSI "4;3m",
	CSI "99999999999m", CSI "99999999998m", CSI "1;2\x1b[3m", CSI "5\x18m", "x", "\xe2\x96\x80", "\r\n",
	CSI "12345;1234;123;12;1;0m", CSI "0001;09;;:m", CSI "?1;2$p", CSI "1;2\x80m", CSI ">m", CSI "??1h",
	CSI "1:2:3:4:5:6:7:8:9:10:11:12:13:14:15m", CSI "1 \x7fq", CSI "\x7f", CSI "1;2;3;4;5;6;7;8;9;10;11;12;13;14;15;16m",
};

#define MEMO_IDS 4096
static struct {
	uint64_t id;
	char text[160];
} memo_seen[MEMO_IDS];
static size_t memo_hits, memo_bad;

static void on_csi_memo(void *ctx, const struct vt_csi *c)
{
	on_csi(ctx, c);
	if (!c->seq_id)
		return;
	struct trace t = {0};
	t_add(&t, "%s", "");
	csi_text(&t, c);
	size_t slot = c->seq_id % MEMO_IDS;
	if (memo_seen[slot].id == c->seq_id) {
		memo_hits++;
		if (strcmp(memo_seen[slot].text, t.s) != 0) {
			fprintf(stderr, "seq_id %llu: %s and %s\n", (unsigned long long)c->seq_id,
				memo_seen[slot].text, t.s);
			memo_bad++;
		}
	} else {
		memo_seen[slot].id = c->seq_id;
		snprintf(memo_seen[slot].text, sizeof(memo_seen[slot].text), "%s", t.s);
	}
	free(t.s);
}

static void test_memo(void)
{
	size_t nu = sizeof(memo_units) / sizeof(memo_units[0]), len = 0;
	static char buf[1 << 20];
	uint32_t r = 12345;
	while (len < sizeof(buf) - 64) {
		r = r * 1103515245u + 12345u;
		const char *u = memo_units[(r >> 16) % nu];
		char gen[64];
		if (r >> 31) {
			/* many more sequences than memo slots, differing only after their 16th byte */
			snprintf(gen, sizeof(gen), CSI "1;2;3;4;5;6;7;8;%u;%um", (r >> 8) % 40, (r >> 4) % 100);
			u = gen;
		}
		size_t ul = strlen(u);
		memcpy(buf + len, u, ul);
		len += ul;
	}
	struct vt_sink s = sink;
	s.csi = on_csi_memo;
	struct trace tw, tb;
	memset(&tw, 0, sizeof(tw));
	t_add(&tw, "%s", "");
	tb = tw;
	tb.s = strdup("");
	struct vt_parser *pw = vt_parser_create(&s, &tw, NULL), *pb = vt_parser_create(&sink, &tb, NULL);
	assert(pw && pb);
	for (size_t i = 0; i < len; i += 65536)
		vt_parser_feed(pw, (const uint8_t *)buf + i, len - i < 65536 ? len - i : 65536);
	for (size_t i = 0; i < len; i++)
		vt_parser_feed(pb, (const uint8_t *)buf + i, 1);
	char *whole = finish(pw, &tw), *bytes = finish(pb, &tb);
	if (strcmp(whole, bytes) != 0) {
		size_t k = 0;
		while (whole[k] == bytes[k])
			k++;
		fprintf(stderr, "memo: whole and byte-by-byte differ at %zu: \"%.60s\" vs \"%.60s\"\n", k,
			whole + (k > 20 ? k - 20 : 0), bytes + (k > 20 ? k - 20 : 0));
		failures++;
	}
	/* the memo must actually have been used, and never for two different sequences */
	if (memo_hits < 10000 || memo_bad) {
		fprintf(stderr, "memo: %zu repeated seq_ids, %zu of them for different sequences\n", memo_hits,
			memo_bad);
		failures++;
	}
	free(whole);
	free(bytes);
}

/* vt_sink.csi_bytes_final: each entry sees only sequences with its final byte, whole, in the ground state;
 * one that declines (returns 0) leaves the sequence to the parser, a NULL entry too, and 8-bit C1 mode
 * calls none. The sink's SGR path here takes "m" sequences of digits and separators and reports them as
 * its csi() does, so the stream fed whole (table) and byte by byte (parsed) must trace the same. */
static size_t final_calls, final_bad;
static bool sgr_plain(const struct vt_csi *c)
{
	return c->final == 'm' && !c->private_marker && !c->n_intermediates && !c->overflow;
}
static void on_csi_final(void *ctx, const struct vt_csi *c)
{
	if (sgr_plain(c)) {
		t_text(ctx, false);
		t_add(ctx, "M");
		return;
	}
	on_csi(ctx, c);
}
static size_t final_m(void *ctx, const uint8_t *s, size_t n)
{
	final_calls++;
	final_bad += s[n - 1] != 'm' || n > 32;
	for (size_t i = 0; i + 1 < n; i++)
		if (s[i] < '0' || s[i] > ';' || n - 1 > 12)
			return 0;
	t_text(ctx, false);
	t_add(ctx, "M");
	return n;
}
static size_t final_h(void *ctx, const uint8_t *s, size_t n)
{
	(void)ctx;
	final_calls++;
	final_bad += s[n - 1] != 'H';
	return 0;
}

/* buf fed to a parser with the sink's csi_bytes_final table in pieces of the sizes sizes[0..ns) (again from the
 * start when they run out; a piece also ends at reset_at, where the parser is reset) and byte by byte to one
 * without the table, reset at the same byte (both with csi as given, cfg may be NULL): true when the two
 * traces agree */
static bool same_pieces(const char *buf, size_t len, const vt_csi_bytes_fn *table,
			void (*csi)(void *, const struct vt_csi *), const struct vt_parser_config *cfg,
			const size_t *sizes, size_t ns, size_t reset_at)
{
	struct vt_sink sw = sink, sb = sink;
	if (csi)
		sw.csi = sb.csi = csi;
	sw.csi_bytes_final = table;
	struct trace tw, tb;
	memset(&tw, 0, sizeof(tw));
	memset(&tb, 0, sizeof(tb));
	t_add(&tw, "%s", "");
	t_add(&tb, "%s", "");
	struct vt_parser *pw = vt_parser_create(&sw, &tw, cfg), *pb = vt_parser_create(&sb, &tb, cfg);
	assert(pw && pb);
	for (size_t i = 0, k = 0; i < len; k++) {
		size_t n = sizes[k % ns] < len - i ? sizes[k % ns] : len - i;
		if (i < reset_at && reset_at - i < n)
			n = reset_at - i;
		if (i == reset_at)
			vt_parser_reset(pw);
		vt_parser_feed(pw, (const uint8_t *)buf + i, n);
		i += n;
	}
	for (size_t i = 0; i < len; i++) {
		if (i == reset_at)
			vt_parser_reset(pb);
		vt_parser_feed(pb, (const uint8_t *)buf + i, 1);
	}
	char *whole = finish(pw, &tw), *bytes = finish(pb, &tb);
	const bool same = strcmp(whole, bytes) == 0;
	free(whole);
	free(bytes);
	return same;
}

/* buf fed whole with the table, byte by byte without */
static bool same_with_table(const char *buf, size_t len, const vt_csi_bytes_fn *table,
			    void (*csi)(void *, const struct vt_csi *), const struct vt_parser_config *cfg)
{
	return same_pieces(buf, len, table, csi, cfg, &len, 1, (size_t)-1);
}

/* Units drawn at random (seed r) into buf until its length reaches lim (each unit under 64 bytes past it). */
static size_t random_units(char *buf, size_t lim, const char *const *parts, size_t np, uint32_t r)
{
	size_t len = 0;
	while (len < lim) {
		r = r * 1103515245u + 12345u;
		const char *u = parts[(r >> 8) % np];
		memcpy(buf + len, u, strlen(u));
		len += strlen(u);
	}
	return len;
}

static void test_csi_bytes_final(void)
{
	static const char *const parts[] = {
		CSI "1;2m", CSI "38;5;100m", CSI "m", CSI "?5m", CSI "1 m", CSI "5\x08m", CSI "5\x18m", CSI "5;H",
		CSI "H", CSI "?1h", CSI "2K", CSI "1;2;3;4;5;6;7;8;9;10;11;12;13;14;15;16;17;18m", "ab", "\r\n",
		CSI "\xc3\xa9m", CSI "4:3m", "x" CSI "3m" "y",
	};
	static vt_csi_bytes_fn table[64];
	table['m' & 63] = final_m;
	table['H' & 63] = final_h;
	char buf[8192];
	const size_t len = random_units(buf, sizeof(buf) - 64, parts, sizeof(parts) / sizeof(parts[0]), 99);
	for (int c1 = 0; c1 < 2; c1++) {
		struct vt_parser_config cfg = {.c1_8bit = c1};
		final_calls = final_bad = 0;
		const bool same = same_with_table(buf, len, table, on_csi_final, &cfg);
		if (!same || final_bad || (c1 ? final_calls != 0 : final_calls < 100)) {
			fprintf(stderr, "csi_bytes_final (c1 %d): %zu calls, %zu with a wrong final, traces %s\n", c1,
				final_calls, final_bad, same ? "agree" : "differ");
			failures++;
		}
	}
}

/* The final byte's search (final_in_32, and feed_avx2's one 32-byte compare): a CSI with its final at every
 * place up to and past the 32 bytes the sink's path looks at, after bytes of every kind a sequence holds
 * (parameters, intermediates, a private marker) and with a UTF-8 byte (>= 0x80, never a final) or a C0
 * control at every place before it. The handler must see exactly the bytes up to the final, and none past
 * 32; the screen trace must match the byte-by-byte feed. */
static size_t final_any_n, final_any_calls;
static size_t final_any(void *ctx, const uint8_t *s, size_t n)
{
	(void)ctx, (void)s;
	final_any_n = n;
	final_any_calls++;
	return 0; /* the parser's own path then parses it: the traces compare that too */
}

static void test_final_positions(void)
{
	static vt_csi_bytes_fn table[64];
	for (unsigned f = 0; f < 64; f++)
		table[f] = final_any;
	static const char fill[] = "0123456789;:<=>? !\"#$%&'()*+,-./";
	int bad = 0;
	for (unsigned len = 0; len <= 40; len++) {
		for (unsigned odd = 0; odd <= len; odd++) {
			/* odd < len: byte odd is 0xc3 (UTF-8, cancels the sequence) or a C0 control; odd == len:
			 * none */
			for (unsigned kind = 0; kind < 2; kind++) {
				if (odd == len && kind)
					continue;
				char buf[128];
				size_t k = 0;
				buf[k++] = 'x';
				buf[k++] = 0x1b;
				buf[k++] = '[';
				for (unsigned j = 0; j < len; j++)
					buf[k++] = j == odd ? (kind ? 0x07 : (char)0xc3)
							    : fill[(j * 7 + len) % (sizeof(fill) - 1)];
				buf[k++] = "m@Hq~K"[len % 6];
				/* text after it, and room for the 32 bytes the path reads */
				static const char after[] = "yz\r\n0123456789012345678901234567890123456789";
				memcpy(buf + k, after, sizeof(after) - 1);
				k += sizeof(after) - 1;
				final_any_n = final_any_calls = 0;
				const bool same = same_with_table(buf, k, table, NULL, NULL);
				/* the handler runs when the first byte in 0x40..0x7f after "ESC [" (the final:
				 * the bytes before it are all below 0x40 or UTF-8) lies in the 32 bytes the path
				 * looks at */
				size_t first = 0;
				while (first < len && ((unsigned char)buf[3 + first] < 0x40 ||
						       (unsigned char)buf[3 + first] > 0x7f))
					first++;
				const size_t want = first + 1 <= 32 ? first + 1 : 0;
				if (!same || final_any_calls != (want != 0) || final_any_n != want) {
					if (bad < 5)
						fprintf(stderr,
							"final at %u (odd %u kind %u): handler saw %zu (%zu calls), "
							"want %zu; traces %s\n",
							len, odd, kind, final_any_n, final_any_calls, want,
							same ? "agree" : "differ");
					bad++;
				}
			}
		}
	}
	if (bad) {
		fprintf(stderr, "final positions: %d wrong\n", bad);
		failures++;
	}
}

/* The scan of a printable text run (scan_printable_32, and feed_avx2's one 32-byte compare): runs of every
 * length up to past two blocks, of every printable byte, ended by every byte that is not printable (C0, DEL,
 * 0x80..0xff) and followed by a CSI and more text, so that the run's end decides where the sequence's path
 * starts; the trace must match the byte-by-byte feed. */
static void test_text_runs(void)
{
	static vt_csi_bytes_fn table[64];
	table['m' & 63] = final_m;
	table['H' & 63] = final_h;
	char buf[256];
	for (unsigned stop = 0; stop < 256; stop++) {
		if (stop - 0x20u < 0x5fu)
			continue;
		for (size_t run = 0; run <= 70; run++) {
			size_t n = 0;
			for (size_t j = 0; j < run; j++)
				buf[n++] = (char)(0x20 + (j * 7 + stop) % 0x5f);
			buf[n++] = (char)stop;
			n += (size_t)sprintf(buf + n, "z" CSI "1;2mab" CSI "3;4H%s", "0123456789012345678901234567890123456789");
			if (!same_with_table(buf, n, table, on_csi_final, NULL)) {
				fprintf(stderr, "a text run of %zu ended by 0x%02x: traces differ\n", run, stop);
				failures++;
			}
		}
	}
}

/* A sequence cut by the end of a feed (a PTY hands the terminal 4 KiB a read): held back and given to the
 * sink's csi_bytes whole with the next feed (vt__carry_feed), or, declined or not of the sink's kind, parsed
 * as before: the stream in pieces must trace as it does byte by byte, and a reset between two pieces drops a
 * held-back sequence as it drops one the parser was collecting. */
static bool same_split(const char *buf, size_t len, const size_t *sizes, size_t ns, size_t reset_at)
{
	static vt_csi_bytes_fn table[64];
	table['m' & 63] = final_m;
	table['H' & 63] = final_h;
	return same_pieces(buf, len, table, on_csi_final, NULL, sizes, ns, reset_at);
}

/* buf (len bytes) cut into two feeds at every place: the handlers called want times, never with a wrong
 * final or more than 32 bytes, and the traces as byte by byte */
static void cut_everywhere(const char *buf, size_t len, size_t want, const char *what)
{
	for (size_t cut = 1; cut < len; cut++) {
		const size_t sizes[] = {cut, 64};
		final_calls = final_bad = 0;
		const bool same = same_split(buf, len, sizes, 2, (size_t)-1);
		if (!same || final_bad || final_calls != want) {
			fprintf(stderr, "%s split at %zu: %zu calls of the handler (want %zu), %zu bad, traces %s\n",
				what, cut, final_calls, want, final_bad, same ? "agree" : "differ");
			failures++;
		}
	}
}

static void test_split_feeds(void)
{
	/* "1;2m" cut after every byte from its ESC on: the handler sees it once, whole, in every case */
	static const char one[] = "ab" CSI "1;2mcd" CSI "3m";
	cut_everywhere(one, sizeof(one) - 1, 2, "1;2m");
	/* 32 parameter bytes and the final after them (33 bytes, one more than csi_bytes takes): the handler
	 * never sees it (the carried path once handed it its 33rd byte as a final) */
	static const char longer[] = "a" CSI "1;2;3;4;5;6;7;8;9;0;1;2;3;4;5;67mb" CSI "1m";
	cut_everywhere(longer, sizeof(longer) - 1, 1, "33-byte SGR");
	/* held back, then the parser reset before the rest came: the rest is text */
	static const char reset[] = "a" CSI "1;" "2mz" CSI "1m";
	const size_t rs[] = {5, 64};
	if (!same_split(reset, sizeof(reset) - 1, rs, 2, 5)) {
		fprintf(stderr, "split and reset: traces differ\n");
		failures++;
	}
	/* every kind of unit (declined, C0 and UTF-8 inside, CAN, too long, ESC alone) in pieces of every size
	 * from 1 to 70 bytes, and in pieces of changing sizes */
	static const char *const parts[] = {
		CSI "1;2m", CSI "38;5;100m", CSI "m", CSI "?5m", CSI "1 m", CSI "5\x08m", CSI "5\x18m", CSI "5;H",
		CSI "H", CSI "?1h", CSI "2K", CSI "1;2;3;4;5;6;7;8;9;10;11;12;13;14;15;16;17;18m", "ab", "\r\n",
		CSI "\xc3\xa9m", CSI "4:3m", "x" CSI "3m" "y", "\x1b" "7", "\x1b", "\xe2\x96\x80", CSI "12;1",
	};
	static char buf[6000];
	const size_t len = random_units(buf, sizeof(buf) - 80, parts, sizeof(parts) / sizeof(parts[0]), 7);
	for (size_t n = 1; n <= 70; n++) {
		const size_t sizes[] = {n};
		if (!same_split(buf, len, sizes, 1, (size_t)-1)) {
			fprintf(stderr, "pieces of %zu bytes: traces differ\n", n);
			failures++;
		}
	}
	const size_t mixed[] = {1, 2, 35, 3, 36, 34, 5, 33, 64, 4096, 7, 2, 1, 40};
	final_calls = 0;
	if (!same_split(buf, len, mixed, sizeof(mixed) / sizeof(mixed[0]), 3000) || final_calls < 100) {
		fprintf(stderr, "pieces of mixed sizes: traces differ or %zu handler calls\n", final_calls);
		failures++;
	}
}

int main(void)
{
	/* both copies of the feed loop (the AVX2 one where the CPU has it) */
	for (int pass = 0; pass < 2; pass++) {
		vt__no_avx2 = pass == 1;
		test_memo();
		test_csi_bytes_final();
		test_final_positions();
		test_text_runs();
		test_split_feeds();
	}
	if (failures) {
		fprintf(stderr, "%d failures\n", failures);
		return 1;
	}
	printf("memo, csi_bytes_final, final positions and split feeds against the byte-by-byte feed: ok\n");
	return 0;
}
