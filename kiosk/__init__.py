"""kiosk package."""
