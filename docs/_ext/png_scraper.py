"""A sphinx-gallery image scraper for the pictures lightsout writes itself.

The gallery scripts call the package's own writers (``render_presses``, ``board_png``,
``write_board``), which produce PNG files in the script's working folder. After each code
block this scraper moves every new ``*.png`` there into the gallery's image folder, in name
order, so the page shows exactly the bytes the package wrote and the source folder stays clean.
"""
from __future__ import annotations

import shutil
from pathlib import Path
from typing import Any

from sphinx_gallery.scrapers import figure_rst


class PNGScraper:
    """Collect the PNG files a gallery code block wrote (sphinx-gallery's scraper protocol)."""

    def __repr__(self) -> str:  # sphinx-gallery caches builds by the repr of its configuration
        return "PNGScraper"

    def __call__(self, block: Any, block_vars: dict[str, Any], gallery_conf: dict[str, Any]) -> str:
        folder = Path(block_vars["src_file"]).parent
        written = sorted(folder.glob("*.png"))
        shown = []
        for png, image_path in zip(written, block_vars["image_path_iterator"]):
            shutil.move(str(png), image_path)
            shown.append(image_path)
        return figure_rst(shown, gallery_conf["src_dir"])
