"""The live viewer's page and assets (HTML, JavaScript, CSS), served by `hunters.service.web`; no CDN."""
