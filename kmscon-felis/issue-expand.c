/* kmscon-felis/issue-expand.c: the escapes of the issue text (agetty(8) "ISSUE ESCAPES"), see issue.h; which
 * files are read, and their reading, is issue.c's. */
#define LOG_TAG "issue"
#include "kmscon-felis/issue-internal.h"

#include <arpa/inet.h>
#include <fcntl.h>
#include <ifaddrs.h>
#include <langinfo.h>
#include <locale.h>
#include <net/if.h>
#include <netdb.h>
#include <netinet/in.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/socket.h>
#include <sys/utsname.h>
#include <termios.h>
#include <unistd.h>
#include <utmpx.h>

#include "kmscon-felis/log.h"

/* agetty's buffers for an escape's {argument}: a longer one is cut to one less than this. */
#define ARG_COLOR 32 /* util-linux UL_COLORNAME_MAXSZ */
#define ARG_OSVAR 64
#define ARG_IFACE 128
/* os-release is a few hundred bytes; a larger file is not one (agetty's bound is 4 MiB). */
#define OS_RELEASE_MAX (64u << 10)
/* Different \S{NAME} looked up per build; later new names give nothing. Each lookup scans os-release whole, and
 * the banner is built in the main loop: a 64 KiB text of \S asking a 64 KiB os-release cost 2.3 s of CPU. */
#define OS_VARS_MAX 64

/* The resolver's answers (\O; \4 and \6 without an interface) wait for KF_ISSUE_RESOLVE_MS in all per build:
 * the banner is built in the main loop. A DNS server that does not answer made glibc wait 10 s per lookup (5 s
 * timeout, 2 tries), and each escape asked again: /etc/issue's "\O" stopped the screen and the keyboard 10 s at
 * each login, tests/kmscon-felis/issue-resolver.py. */
struct lookup {
	struct gaicb cb;
	struct addrinfo hints;
	char host[256];
};
/* A lookup that outlived its build and could not be cancelled (glibc's thread is in it): its memory must live
 * until it ends. One at most: while it runs, later builds ask nothing (the resolver is not answering anyway). */
static struct lookup *stuck;
static bool resolve_noticed;

/* One build's expansion: where the text goes, and what its escapes asked, once per build. */
struct issue_expand {
	const struct kf_issue_opts *o;
	struct issue_text *out; /* issue.c's, for the build's time */
	char *osrel; /* os-release, read once per build; "" when it could not be read */
	bool osrel_read;
	struct {
		char name[ARG_OSVAR];
		char *value; /* NULL: not there */
	} osvar[OS_VARS_MAX];
	size_t n_osvar;
	struct utsname uts;
	bool uts_ok;
	/* the resolver's answers, asked once per build: \O's domain, \4's and \6's fallback address */
	char *dns_domain;
	char addr[2][INET6_ADDRSTRLEN + 1];
	bool dns_asked, addr_asked[2];
	struct timespec deadline; /* the resolver's time ends here (CLOCK_MONOTONIC); tv_sec 0: not started */
	/* read once per build, not per escape (a text of \4{IF} or \u made thousands of netlink dumps or utmp reads) */
	struct ifaddrs *ifaddrs;
	bool ifaddrs_read, ifaddrs_ok;
	int users; /* -1 until read */
	/* \d's day and month names: LC_TIME of the environment, as agetty takes its locale from it (under systemd
	 * LANG from locale.conf); the program itself runs in C, where "Mo Dez" was "Mon Dec". 0: C. */
	locale_t time_loc;
	bool time_loc_made;
};

static void put(struct issue_text *b, const char *s, size_t n)
{
	if (b->cut || b->nomem || !n)
		return;
	if (n > b->max - b->len) {
		n = b->max - b->len;
		b->cut = true;
	}
	if (b->len + n + 1 > b->cap) {
		size_t cap = b->cap ? b->cap : 256;
		while (cap < b->len + n + 1)
			cap *= 2;
		char *p = realloc(b->p, cap);
		if (!p) {
			b->nomem = true;
			return;
		}
		b->p = p;
		b->cap = cap;
	}
	memcpy(b->p + b->len, s, n);
	b->len += n;
	b->p[b->len] = '\0';
}

static void puts_(struct issue_text *b, const char *s)
{
	put(b, s, strlen(s));
}


/* agetty's get_escape_argument(): "{...}" after the escape's letter. At text[*i] when it is '{': copies up to
 * size - 1 bytes of what is before '}' into arg and steps past the '}'. Without '{', nothing is taken; with no
 * '}' before the end, the rest of the text is taken and there is no argument. Returns whether there is one. */
static bool escape_arg(const char *text, size_t len, size_t *i, char *arg, size_t size)
{
	if (*i >= len || text[*i] != '{')
		return false;
	size_t k = 0, j = *i + 1;
	for (; j < len && text[j] != '}'; j++)
		if (k < size - 1)
			arg[k++] = text[j];
	if (j >= len) {
		*i = len;
		return false;
	}
	arg[k] = '\0';
	*i = j + 1;
	return true;
}

/* util-linux's colour names (lib/color-names.c), as its manual lists them. */
static const char *color_seq(const char *name)
{
	static const struct {
		const char *name, *seq;
	} colors[] = {
		{"black", "\033[30m"},	      {"blink", "\033[5m"},	      {"blue", "\033[34m"},
		{"bold", "\033[1m"},	      {"brown", "\033[33m"},	      {"cyan", "\033[36m"},
		{"darkgray", "\033[1;30m"},   {"gray", "\033[37m"},	      {"green", "\033[32m"},
		{"halfbright", "\033[2m"},    {"lightblue", "\033[1;34m"},    {"lightcyan", "\033[1;36m"},
		{"lightgray", "\033[37m"},    {"lightgreen", "\033[1;32m"},   {"lightmagenta", "\033[1;35m"},
		{"lightred", "\033[1;31m"},   {"magenta", "\033[35m"},	      {"red", "\033[31m"},
		{"reset", "\033[0m"},	      {"reverse", "\033[7m"},	      {"yellow", "\033[1;33m"},
		{"white", "\033[1;37m"},
	};
	for (size_t i = 0; i < sizeof(colors) / sizeof(colors[0]); i++)
		if (!strcmp(colors[i].name, name))
			return colors[i].seq;
	return NULL;
}

static const char *os_release(struct issue_expand *c)
{
	if (!c->osrel_read) {
		const char *root = c->o->root ? c->o->root : "";
		static const char *const paths[] = {"/etc/os-release", "/usr/lib/os-release"};
		c->osrel_read = true;
		for (size_t i = 0; i < 2 && !c->osrel; i++) {
			char path[4096];
			size_t len;
			snprintf(path, sizeof(path), "%s%s", root, paths[i]);
			/* /usr/lib's when /etc's cannot be opened, as agetty; also when it is no regular file (agetty
			 * waited on a FIFO there). A file larger than any os-release is read as empty, as agetty's
			 * (beyond 4 MiB there). */
			if (issue_slurp(AT_FDCWD, path, path, OS_RELEASE_MAX + 1, &c->osrel, &len) == 0 &&
			    len > OS_RELEASE_MAX) {
				free(c->osrel);
				c->osrel = strdup("");
			}
		}
	}
	return c->osrel;
}

/* The value of name in os-release as agetty's read_os_release() finds it: the last line "NAME = value" (blanks
 * allowed around '='), the value without blanks, '=' and '"' in front and without blanks and one '"' at its end;
 * lines starting with '#' or ';' are comments. No unquoting beyond that (single quotes stay). malloc'd or NULL. */
static char *os_var(struct issue_expand *c, const char *name)
{
	const char *f = os_release(c);
	size_t nlen = strlen(name);
	char *ret = NULL;
	/* (an empty name matched every line without moving on: agetty 2.38 loops for ever on \S{}) */
	if (!f || !nlen)
		return NULL;
	const char *p = f;
	for (;;) {
		p += strspn(p, " \t\n\r");
		if (!*p)
			break;
		if (*p == '#' || *p == ';' || strncmp(p, name, nlen)) {
			p += strcspn(p, "\n\r");
			continue;
		}
		p += nlen;
		p += strspn(p, " \t\n\r");
		if (*p != '=')
			continue;
		p += strspn(p, " \t\n\r=\"");
		size_t n = strcspn(p, "\n\r");
		const char *eol = p + n;
		while (n > 0 && (p[n - 1] == ' ' || p[n - 1] == '\t'))
			n--;
		if (n > 0 && p[n - 1] == '"')
			n--;
		free(ret);
		ret = strndup(p, n);
		if (!ret)
			return NULL;
		p = *eol ? eol + 1 : eol;
	}
	return ret;
}

/* os_var, asked once per name and build; NULL when the name is not there (or past OS_VARS_MAX names). */
static const char *os_var_cached(struct issue_expand *c, const char *name)
{
	for (size_t i = 0; i < c->n_osvar; i++)
		if (!strcmp(c->osvar[i].name, name))
			return c->osvar[i].value;
	if (c->n_osvar == OS_VARS_MAX)
		return NULL;
	/* (name is an escape's argument, cut to ARG_OSVAR - 1 bytes, or a constant) */
	snprintf(c->osvar[c->n_osvar].name, ARG_OSVAR, "%s", name);
	return c->osvar[c->n_osvar++].value = os_var(c, name);
}

static const char *uts(struct issue_expand *c, int field)
{
	if (!c->uts_ok && uname(&c->uts) == 0)
		c->uts_ok = true;
	if (!c->uts_ok)
		return "";
	switch (field) {
	case 's':
		return c->uts.sysname;
	case 'n':
		return c->uts.nodename;
	case 'r':
		return c->uts.release;
	case 'v':
		return c->uts.version;
	default:
		return c->uts.machine;
	}
}

/* getaddrinfo(host, NULL, hints, res) within the build's resolver time. Returns getaddrinfo's result, EAI_AGAIN
 * when the time ran out. */
static int resolve(struct issue_expand *c, const char *host, const struct addrinfo *hints, struct addrinfo **res)
{
	struct timespec now;
	clock_gettime(CLOCK_MONOTONIC, &now);
	if (!c->deadline.tv_sec) {
		c->deadline = now;
		c->deadline.tv_sec += KF_ISSUE_RESOLVE_MS / 1000;
		c->deadline.tv_nsec += (long)(KF_ISSUE_RESOLVE_MS % 1000) * 1000000;
		if (c->deadline.tv_nsec >= 1000000000) {
			c->deadline.tv_sec++;
			c->deadline.tv_nsec -= 1000000000;
		}
	}
	if (stuck) {
		if (gai_error(&stuck->cb) == EAI_INPROGRESS)
			return EAI_AGAIN;
		if (stuck->cb.ar_result)
			freeaddrinfo(stuck->cb.ar_result);
		free(stuck);
		stuck = NULL;
	}
	struct lookup *l = calloc(1, sizeof(*l));
	if (!l)
		return EAI_MEMORY;
	l->hints = *hints;
	snprintf(l->host, sizeof(l->host), "%s", host);
	l->cb.ar_name = l->host;
	l->cb.ar_request = &l->hints;
	struct gaicb *list[1] = {&l->cb};
	if (getaddrinfo_a(GAI_NOWAIT, list, 1, NULL) != 0) {
		free(l);
		return EAI_SYSTEM;
	}
	for (;;) {
		clock_gettime(CLOCK_MONOTONIC, &now);
		struct timespec left = {c->deadline.tv_sec - now.tv_sec, c->deadline.tv_nsec - now.tv_nsec};
		if (left.tv_nsec < 0) {
			left.tv_sec--;
			left.tv_nsec += 1000000000;
		}
		if (left.tv_sec < 0 || gai_error(&l->cb) != EAI_INPROGRESS)
			break;
		gai_suspend((const struct gaicb *const *)list, 1, &left);
	}
	int r = gai_error(&l->cb);
	if (r == EAI_INPROGRESS && gai_cancel(&l->cb) != EAI_CANCELED) {
		stuck = l;
	} else if (r == EAI_INPROGRESS) {
		free(l);
	}
	if (r == EAI_INPROGRESS) {
		if (!resolve_noticed) {
			resolve_noticed = true;
			log_notice("the resolver did not answer for %s within %u ms: the issue banner goes without it",
				   host, KF_ISSUE_RESOLVE_MS);
		}
		return EAI_AGAIN;
	}
	*res = l->cb.ar_result;
	free(l);
	return r;
}

static void put_addr(struct issue_text *b, int family, const struct sockaddr *sa)
{
	char s[INET6_ADDRSTRLEN + 1];
	const void *a = family == AF_INET ? (const void *)&((const struct sockaddr_in *)(const void *)sa)->sin_addr
					  : (const void *)&((const struct sockaddr_in6 *)(const void *)sa)->sin6_addr;
	if (inet_ntop(family, a, s, sizeof(s)))
		puts_(b, s);
}

/* \4, \6: the first address of the family on the named interface; without a name, on the first one that is up,
 * running and no loopback, else the host name's address (agetty's output_iface_ip). */
static void iface_addr(struct issue_expand *c, const struct ifaddrs *addrs, const char *iface, int family)
{
	struct issue_text *b = c->out;
	for (const struct ifaddrs *p = addrs; p; p = p->ifa_next) {
		if (!p->ifa_name || !p->ifa_addr || p->ifa_addr->sa_family != family)
			continue;
		if (iface ? strcmp(p->ifa_name, iface) != 0
			  : (p->ifa_flags & IFF_LOOPBACK) || !(p->ifa_flags & IFF_UP) || !(p->ifa_flags & IFF_RUNNING))
			continue;
		put_addr(b, family, p->ifa_addr);
		return;
	}
	char host[256];
	struct addrinfo hints = {.ai_family = family, .ai_flags = family == AF_INET6 ? AI_V4MAPPED : 0}, *info;
	int k = family == AF_INET6;
	if (iface)
		return;
	if (!c->addr_asked[k] && gethostname(host, sizeof(host)) == 0) {
		struct issue_text one = {.max = sizeof(c->addr[k]) - 1};
		host[sizeof(host) - 1] = '\0';
		if (resolve(c, host, &hints, &info) == 0) {
			if (info->ai_family == family)
				put_addr(&one, family, info->ai_addr);
			freeaddrinfo(info);
		}
		snprintf(c->addr[k], sizeof(c->addr[k]), "%s", one.p ? one.p : "");
		free(one.p);
	}
	c->addr_asked[k] = true;
	puts_(b, c->addr[k]);
}

static void put_speed(struct issue_text *b, int fd)
{
	static const struct {
		speed_t code;
		const char *text;
	} speeds[] = {
		{B50, "50"},	     {B75, "75"},	  {B110, "110"},       {B134, "134"},	      {B150, "150"},
		{B200, "200"},	     {B300, "300"},	  {B600, "600"},       {B1200, "1200"},	      {B1800, "1800"},
		{B2400, "2400"},     {B4800, "4800"},	  {B9600, "9600"},     {B19200, "19200"},     {B38400, "38400"},
		{B57600, "57600"},   {B115200, "115200"}, {B230400, "230400"}, {B460800, "460800"},   {B500000, "500000"},
		{B576000, "576000"}, {B921600, "921600"}, {B1000000, "1000000"}, {B1152000, "1152000"},
		{B1500000, "1500000"}, {B2000000, "2000000"}, {B2500000, "2500000"}, {B3000000, "3000000"},
		{B3500000, "3500000"}, {B4000000, "4000000"},
	};
	struct termios t;
	if (fd < 0 || tcgetattr(fd, &t) < 0)
		return;
	for (size_t i = 0; i < sizeof(speeds) / sizeof(speeds[0]); i++)
		if (speeds[i].code == cfgetispeed(&t)) {
			puts_(b, speeds[i].text);
			return;
		}
}

static int users(void)
{
	int n = 0;
	struct utmpx *ut;
	setutxent();
	while ((ut = getutxent()))
		if (ut->ut_type == USER_PROCESS)
			n++;
	endutxent();
	return n;
}

/* A day's or month's name in the environment's LC_TIME (made once per build), C's when it has none or cannot be
 * loaded (agetty's setlocale then fails and it stays in C too). */
static const char *time_name(struct issue_expand *c, nl_item item)
{
	if (!c->time_loc_made) {
		c->time_loc_made = true;
		c->time_loc = newlocale(LC_TIME_MASK, "", (locale_t)0);
	}
	return c->time_loc ? nl_langinfo_l(item, c->time_loc) : nl_langinfo(item);
}

/* The escape \e (e is text[*i - 1]); *i is after it and moves past an argument it takes. */
static void escape(struct issue_expand *c, unsigned char e, const char *text, size_t len, size_t *i)
{
	struct issue_text *b = c->out;
	char arg[ARG_IFACE], tmp[96];
	switch (e) {
	case 'e':
		if (escape_arg(text, len, i, arg, ARG_COLOR)) {
			const char *seq = color_seq(arg);
			if (seq)
				puts_(b, seq);
		} else {
			puts_(b, "\033");
		}
		break;
	case 's':
	case 'n':
	case 'r':
	case 'v':
	case 'm':
		puts_(b, uts(c, e));
		break;
	case 'o': {
		char dom[256];
		if (getdomainname(dom, sizeof(dom)) == 0) {
			dom[sizeof(dom) - 1] = '\0';
			puts_(b, dom);
		} else {
			puts_(b, "unknown_domain");
		}
		break;
	}
	case 'O': {
		char host[256];
		const char *dom = NULL;
		struct addrinfo hints = {.ai_flags = AI_CANONNAME}, *info = NULL;
		if (!c->dns_asked && gethostname(host, sizeof(host)) == 0) {
			host[sizeof(host) - 1] = '\0';
			if (resolve(c, host, &hints, &info) == 0 && info && info->ai_canonname)
				dom = strchr(info->ai_canonname, '.');
			c->dns_domain = strdup(dom ? dom + 1 : "unknown_domain");
			if (info)
				freeaddrinfo(info);
		}
		c->dns_asked = true;
		puts_(b, c->dns_domain ? c->dns_domain : "unknown_domain");
		break;
	}
	case 'd':
	case 't': {
		time_t now = c->o->now ? c->o->now : time(NULL);
		struct tm tm;
		/* The zone in force now, as agetty (a new process per login) shows it: glibc's localtime_r reads
		 * TZ and /etc/localtime only at its first call, and a zone changed since (timedatectl
		 * set-timezone) showed the old one until a restart. tzset looks again (a stat of the file). */
		tzset();
		localtime_r(&now, &tm);
		if (e == 'd')
			snprintf(tmp, sizeof(tmp), "%s %s %2d  %d", time_name(c, ABDAY_1 + tm.tm_wday),
				 time_name(c, ABMON_1 + tm.tm_mon), tm.tm_mday,
				 tm.tm_year < 70 ? tm.tm_year + 2000 : tm.tm_year + 1900);
		else
			snprintf(tmp, sizeof(tmp), "%02d:%02d:%02d", tm.tm_hour, tm.tm_min, tm.tm_sec);
		puts_(b, tmp);
		break;
	}
	case 'l':
		puts_(b, c->o->tty ? c->o->tty : "");
		break;
	case 'b':
		put_speed(b, c->o->tty_fd);
		break;
	case 'S': {
		const char *v;
		if (escape_arg(text, len, i, arg, ARG_OSVAR)) {
			v = os_var_cached(c, arg);
			if (v && !strcmp(arg, "ANSI_COLOR")) {
				puts_(b, "\033[");
				puts_(b, v);
				puts_(b, "m");
			} else if (v) {
				puts_(b, v);
			}
		} else if ((v = os_var_cached(c, "PRETTY_NAME"))) {
			puts_(b, v);
		} else {
			puts_(b, uts(c, 's'));
		}
		break;
	}
	case 'u':
	case 'U': {
		if (c->users < 0)
			c->users = users();
		int n = c->users;
		if (e == 'U')
			snprintf(tmp, sizeof(tmp), n == 1 ? "%d user" : "%d users", n);
		else
			snprintf(tmp, sizeof(tmp), "%d ", n);
		puts_(b, tmp);
		break;
	}
	case '4':
	case '6': {
		if (!c->ifaddrs_read)
			c->ifaddrs_ok = getifaddrs(&c->ifaddrs) == 0;
		c->ifaddrs_read = true;
		/* (agetty reads the argument only once the addresses are there: without them it stays text) */
		if (!c->ifaddrs_ok)
			break;
		bool named = escape_arg(text, len, i, arg, ARG_IFACE);
		iface_addr(c, c->ifaddrs, named ? arg : NULL, e == '4' ? AF_INET : AF_INET6);
		break;
	}
	default:
		put(b, (const char *)&e, 1);
		break;
	}
}

void issue_expand(struct issue_expand *c, const char *text, size_t len)
{
	size_t i = 0;
	while (i < len && !c->out->cut && !c->out->nomem) {
		const char *bs = memchr(text + i, '\\', len - i);
		size_t n = bs ? (size_t)(bs - (text + i)) : len - i;
		put(c->out, text + i, n);
		i += n;
		if (!bs)
			break;
		i++; /* the backslash; one at the very end is dropped */
		if (i < len) {
			unsigned char e = (unsigned char)text[i++];
			escape(c, e, text, len, &i);
		}
	}
}

struct issue_expand *issue_expand_create(const struct kf_issue_opts *o, struct issue_text *out)
{
	struct issue_expand *c = calloc(1, sizeof(*c));
	if (!c)
		return NULL;
	c->o = o;
	c->out = out;
	c->users = -1;
	return c;
}

void issue_expand_destroy(struct issue_expand *c)
{
	if (!c)
		return;
	free(c->osrel);
	for (size_t i = 0; i < c->n_osvar; i++)
		free(c->osvar[i].value);
	free(c->dns_domain);
	if (c->ifaddrs_ok)
		freeifaddrs(c->ifaddrs);
	if (c->time_loc)
		freelocale(c->time_loc);
	free(c);
}
