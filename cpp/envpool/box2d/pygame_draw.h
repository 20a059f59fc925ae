// A small software canvas that reproduces, pixel for pixel, what pygame 2.6.1
// draws on a 32-bit RGB pygame.Surface, for the calls gymnasium's Box2D
// renderers make. Every rule that decides a pixel (float to int conversion,
// scanline fill, SDL_gfx fixed-point maths, clipping, sort order) follows
// pygame's behaviour on x86-64 Linux. One header per kind of call:
//   pygame_surface.h       the canvas, fill/rect/flip, C number conversions
//   pygame_polygon_fill.h  draw.polygon and gfxdraw.filled_polygon
//   pygame_lines.h         draw.line and draw.lines
//   pygame_aalines.h       draw.aaline and draw.aalines
//   pygame_gfx_aapolygon.h gfxdraw.aapolygon
//   pygame_circle.h        draw.circle (filled)
//   pygame_smoothscale.h   transform.smoothscale
//   pygame_ce_draw.h       draw.polygon and draw.line(s) as pygame-ce 2.5.8
//                          draws them (where it differs from pygame 2.6.1)
//   pygame_ce_aalines.h    draw.aalines as pygame-ce 2.5.8 draws it
#ifndef ENVPOOL_BOX2D_PYGAME_DRAW_H_
#define ENVPOOL_BOX2D_PYGAME_DRAW_H_

#include "envpool/box2d/pygame_aalines.h"
#include "envpool/box2d/pygame_ce_aalines.h"
#include "envpool/box2d/pygame_ce_draw.h"
#include "envpool/box2d/pygame_circle.h"
#include "envpool/box2d/pygame_gfx_aapolygon.h"
#include "envpool/box2d/pygame_lines.h"
#include "envpool/box2d/pygame_polygon_fill.h"
#include "envpool/box2d/pygame_smoothscale.h"
#include "envpool/box2d/pygame_surface.h"

#endif  // ENVPOOL_BOX2D_PYGAME_DRAW_H_
