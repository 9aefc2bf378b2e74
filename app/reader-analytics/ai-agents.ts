/**
 * User-agent tokens of AI crawlers, assistants and agents: the `User-agent` names of the
 * ai.robots.txt project's `robots.txt` (github.com/ai-robots-txt/ai.robots.txt, MIT licence,
 * "Copyright (c) 2024 ai.robots.txt"), as of 2026-11. Names that are ordinary words and would
 * match people's browsers (`Code`, `Spider`, `Operator`, `Trae`, `YaK`, `LCC`) are left out;
 * `Scrapy` and the like stay: a scraping framework is not a reader. Update by copying the
 * project's list again (docs/analytics.md, "Who counts as human or AI").
 */
export const AI_AGENT_TOKENS: readonly string[] = [
  'AddSearchBot', 'AI2Bot', 'Ai2Bot-Dolma', 'aiHitBot', 'AgentTimes', 'amazon-kendra', 'Amazonbot', 'AmazonBuyForMe',
  'Amzn-SearchBot', 'Amzn-User', 'Andibot', 'Anomura', 'anthropic-ai', 'ApifyBot', 'ApifyWebsiteContentCrawler', 'Applebot',
  'Applebot-Extended', 'Aranet-SearchBot', 'atlassian-bot', 'Awario', 'AzureAI-SearchBot', 'bedrockbot', 'bigsur.ai', 'Bravebot',
  'Brightbot', 'BuddyBot', 'Bytespider', 'CCBot', 'Channel3Bot', 'ChatGLM-Spider', 'ChatGPT Agent', 'ChatGPT-User', 'Claude-Code',
  'Claude-SearchBot', 'Claude-User', 'Claude-Web', 'ClaudeBot', 'Cloudflare-AutoRAG', 'CloudVertexBot', 'cohere-ai',
  'cohere-training-data-crawler', 'Cotoyogi', 'Crawl4AI', 'Crawlspace', 'Datenbank Crawler', 'DeepSeekBot', 'Devin', 'Diffbot',
  'DuckAssistBot', 'Echobot Bot', 'EchoboxBot', 'ExaBot', 'FacebookBot', 'facebookexternalhit', 'Factset_spyderbot',
  'FirecrawlAgent', 'FriendlyCrawler', 'Gemini-Deep-Research', 'Google-Agent', 'Google-CloudVertexBot', 'Google-Extended',
  'Google-Firebase', 'Google-Gemini-CLI', 'Google-NotebookLM', 'GoogleAgent-Mariner', 'GoogleOther', 'GPTBot', 'HenkBot',
  'iAskBot', 'iaskspider', 'IbouBot', 'ICC-Crawler', 'ImagesiftBot', 'imageSpider', 'img2dataset', 'ISSCyberRiskCrawler',
  'kagi-fetcher', 'Kangaroo Bot', 'KlaviyoAIBot', 'KunatoCrawler', 'laion-huggingface-processor', 'LAIONDownloader', 'LinerBot',
  'Linguee Bot', 'LinkupBot', 'Manus-User', 'meta-externalagent', 'meta-externalfetcher', 'meta-webindexer', 'MistralAI-User',
  'MyCentralAIScraperBot', 'NagetBot', 'netEstate Imprint Crawler', 'newsai', 'NotebookLM', 'NovaAct', 'OAI-SearchBot', 'omgili',
  'omgilibot', 'OpenAI', 'opencode', 'PanguBot', 'Panscient', 'Perplexity-User', 'PerplexityBot', 'PetalBot', 'PhindBot',
  'Poggio-Citations', 'Poseidon Research Crawler', 'QualifiedBot', 'QuillBot', 'SBIntuitionsBot', 'Scrapy', 'SemrushBot-OCOB',
  'SemrushBot-SWA', 'Shap-User', 'ShapBot', 'Sidetrade indexer bot', 'TavilyBot', 'Terra Cotta', 'TerraCotta', 'Thinkbot',
  'TikTokSpider', 'Timpibot', 'TwinAgent', 'VelenPublicWebCrawler', 'WARDBot', 'Webzio-Extended', 'wpbot', 'WRTNBot',
  'YandexAdditional', 'YouBot', 'ZanistaBot',
];
