"""Draw the app icons of the web app manifest (static/icons/*.png) with Pillow: the matchstick
of static/favicon.svg on a dark red field. Run once after changing the design:
``.venv/bin/python scripts/make_icons.py``."""

from pathlib import Path

from PIL import Image, ImageDraw

OUT = Path(__file__).resolve().parent.parent / "static" / "icons"
FIELD, STICK, HEAD = "#8b1e17", "#e8b86a", "#f4efe6"


def icon(size: int, *, maskable: bool) -> Image.Image:
    scale = 4  # draw large, shrink smoothly
    big = size * scale
    image = Image.new("RGBA", (big, big), (0, 0, 0, 0))
    draw = ImageDraw.Draw(image)
    if maskable:  # full bleed; the platform cuts its own shape, the motif stays in the middle 80 %
        draw.rectangle((0, 0, big, big), fill=FIELD)
        unit = big * 0.8 / 32
        offset = big * 0.1
    else:
        draw.rounded_rectangle((0, 0, big - 1, big - 1), radius=big * 0.18, fill=FIELD)
        unit = big / 32
        offset = 0

    def box(x0, y0, x1, y1):
        return (offset + x0 * unit, offset + y0 * unit, offset + x1 * unit, offset + y1 * unit)

    draw.rounded_rectangle(box(14, 9, 18, 28), radius=unit, fill=STICK)
    draw.ellipse(box(11.5, 3, 20.5, 13), fill=HEAD)
    return image.resize((size, size), Image.LANCZOS)


if __name__ == "__main__":
    OUT.mkdir(exist_ok=True)
    for size in (192, 512):
        icon(size, maskable=False).save(OUT / f"icon-{size}.png", optimize=True)
    icon(512, maskable=True).save(OUT / "icon-maskable-512.png", optimize=True)
