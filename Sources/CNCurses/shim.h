// ncursesw for Swift: wide-character input, and accessors for what Swift cannot import
// (C globals such as stdscr/stdin/stdout, function-like macros such as COLOR_PAIR and getmaxyx,
// mouse button masks).
#ifndef DEMO_NCURSES_SHIM_H
#define DEMO_NCURSES_SHIM_H

#define NCURSES_WIDECHAR 1
#define _XOPEN_SOURCE_EXTENDED 1
#include <locale.h>
#include <stdio.h>
#include <wchar.h>
#include <ncursesw/ncurses.h>

/// newterm on the process's stdin/stdout; NULL (instead of exiting) when TERM is unusable.
static inline SCREEN *demo_newterm(void) { return newterm(NULL, stdout, stdin); }
static inline WINDOW *demo_stdscr(void) { return stdscr; }
static inline int demo_rows(void) { int y, x; getmaxyx(stdscr, y, x); (void)x; return y; }
static inline int demo_cols(void) { int y, x; getmaxyx(stdscr, y, x); (void)y; return x; }
static inline int demo_color_pair(int n) { return COLOR_PAIR(n); }
static inline int demo_attr_bold(void) { return A_BOLD; }
static inline int demo_attr_reverse(void) { return A_REVERSE; }
static inline int demo_attr_dim(void) { return A_DIM; }
static inline int demo_attr_underline(void) { return A_UNDERLINE; }
static inline mmask_t demo_mouse_mask(void) { return BUTTON1_CLICKED | BUTTON1_PRESSED | BUTTON1_RELEASED; }
static inline int demo_is_click(mmask_t state) { return (state & (BUTTON1_CLICKED | BUTTON1_PRESSED)) != 0; }
/// get_wch into an int: returns OK / KEY_CODE_YES / ERR and the key or character in *out.
static inline int demo_get_wch(int *out) { wint_t w = 0; int r = get_wch(&w); *out = (int)w; return r; }
static inline int demo_key_code_yes(void) { return KEY_CODE_YES; }
#endif
