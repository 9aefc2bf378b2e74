import { CLIENT_ROWS, type ClientStrings } from './client-strings.js';
import { LAYOUT_ROWS, type LayoutStrings } from './layout-strings.js';
import { PLAYGROUND_ROWS, type PlaygroundStrings } from './playground-strings.js';
import type { RowCode } from './row-codes.js';
import { SIGN_IN_ROWS, type SignInStrings } from './sign-in-strings.js';

/**
 * The site chrome's words in every language Mintlify accepts for `navigation.languages`
 * (mintlify-docs organize/settings-reference.mdx lists the codes): one row per language, English
 * the fallback. Pages pick theirs by their navigation language (renderer/layout/chrome.ts);
 * client scripts read theirs from the page (`<html data-strings>`, page-strings.ts), never from a
 * copy of these tables. Translations follow each language's usual interface wording. This file has
 * the first words localized; layout-strings.ts, client-strings.ts, playground-strings.ts and sign-in-strings.ts the rest.
 */
export interface BaseStrings {
  /** The search button ("Search..."). */
  search: string;
  previous: string;
  next: string;
  /** The table of contents' heading. */
  onThisPage: string;
  /** The page feedback question and its two answers. */
  helpful: string;
  yes: string;
  no: string;
  /** Page menu (contextual) options and what "Copy page" says once done. */
  copyPage: string;
  viewMarkdown: string;
  askAssistant: string;
  copied: string;
  /** The assistant's launcher and panel title (assistant.js reads it from the page). */
  askAi: string;
  /** The search dialog's field. */
  searchPlaceholder: string;
}

/** Every word of the chrome in one language. */
export type ChromeStrings = BaseStrings & LayoutStrings & ClientStrings & PlaygroundStrings & SignInStrings;

const ROWS: Record<RowCode, BaseStrings> = {
  "en": { search: "Search...", previous: "Previous", next: "Next", onThisPage: "On this page", helpful: "Was this page helpful?", yes: "Yes", no: "No", copyPage: "Copy page", viewMarkdown: "View as Markdown", askAssistant: "Ask assistant", copied: "Copied", askAi: "Ask AI", searchPlaceholder: "Search documentation..." },
  "ar": { search: "بحث...", previous: "السابق", next: "التالي", onThisPage: "في هذه الصفحة", helpful: "هل كانت هذه الصفحة مفيدة؟", yes: "نعم", no: "لا", copyPage: "نسخ الصفحة", viewMarkdown: "عرض بصيغة Markdown", askAssistant: "اسأل المساعد", copied: "تم النسخ", askAi: "اسأل الذكاء الاصطناعي", searchPlaceholder: "ابحث في الوثائق..." },
  "ca": { search: "Cerca...", previous: "Anterior", next: "Següent", onThisPage: "En aquesta pàgina", helpful: "Us ha estat útil aquesta pàgina?", yes: "Sí", no: "No", copyPage: "Copia la pàgina", viewMarkdown: "Mostra com a Markdown", askAssistant: "Pregunta a l'assistent", copied: "Copiat", askAi: "Pregunta a la IA", searchPlaceholder: "Cerca a la documentació..." },
  "cs": { search: "Hledat...", previous: "Předchozí", next: "Další", onThisPage: "Na této stránce", helpful: "Byla tato stránka užitečná?", yes: "Ano", no: "Ne", copyPage: "Kopírovat stránku", viewMarkdown: "Zobrazit jako Markdown", askAssistant: "Zeptat se asistenta", copied: "Zkopírováno", askAi: "Zeptat se AI", searchPlaceholder: "Hledat v dokumentaci..." },
  "da": { search: "Søg...", previous: "Forrige", next: "Næste", onThisPage: "På denne side", helpful: "Var denne side nyttig?", yes: "Ja", no: "Nej", copyPage: "Kopiér side", viewMarkdown: "Vis som Markdown", askAssistant: "Spørg assistenten", copied: "Kopieret", askAi: "Spørg AI", searchPlaceholder: "Søg i dokumentationen..." },
  "de": { search: "Suchen...", previous: "Zurück", next: "Weiter", onThisPage: "Auf dieser Seite", helpful: "War diese Seite hilfreich?", yes: "Ja", no: "Nein", copyPage: "Seite kopieren", viewMarkdown: "Als Markdown anzeigen", askAssistant: "Assistent fragen", copied: "Kopiert", askAi: "KI fragen", searchPlaceholder: "Dokumentation durchsuchen..." },
  "es": { search: "Buscar...", previous: "Anterior", next: "Siguiente", onThisPage: "En esta página", helpful: "¿Te resultó útil esta página?", yes: "Sí", no: "No", copyPage: "Copiar página", viewMarkdown: "Ver como Markdown", askAssistant: "Preguntar al asistente", copied: "Copiado", askAi: "Preguntar a la IA", searchPlaceholder: "Buscar en la documentación..." },
  "fi": { search: "Hae...", previous: "Edellinen", next: "Seuraava", onThisPage: "Tällä sivulla", helpful: "Oliko tästä sivusta apua?", yes: "Kyllä", no: "Ei", copyPage: "Kopioi sivu", viewMarkdown: "Näytä Markdownina", askAssistant: "Kysy avustajalta", copied: "Kopioitu", askAi: "Kysy tekoälyltä", searchPlaceholder: "Hae dokumentaatiosta..." },
  "fr": { search: "Rechercher...", previous: "Précédent", next: "Suivant", onThisPage: "Sur cette page", helpful: "Cette page vous a-t-elle été utile ?", yes: "Oui", no: "Non", copyPage: "Copier la page", viewMarkdown: "Afficher en Markdown", askAssistant: "Demander à l'assistant", copied: "Copié", askAi: "Demander à l'IA", searchPlaceholder: "Rechercher dans la documentation..." },
  "he": { search: "חיפוש...", previous: "הקודם", next: "הבא", onThisPage: "בדף זה", helpful: "האם הדף הזה עזר לך?", yes: "כן", no: "לא", copyPage: "העתקת הדף", viewMarkdown: "הצגה כ-Markdown", askAssistant: "שאל את העוזר", copied: "הועתק", askAi: "שאל את ה-AI", searchPlaceholder: "חיפוש בתיעוד..." },
  "hi": { search: "खोजें...", previous: "पिछला", next: "अगला", onThisPage: "इस पृष्ठ पर", helpful: "क्या यह पृष्ठ उपयोगी था?", yes: "हाँ", no: "नहीं", copyPage: "पृष्ठ कॉपी करें", viewMarkdown: "Markdown के रूप में देखें", askAssistant: "सहायक से पूछें", copied: "कॉपी हो गया", askAi: "AI से पूछें", searchPlaceholder: "दस्तावेज़ खोजें..." },
  "hu": { search: "Keresés...", previous: "Előző", next: "Következő", onThisPage: "Ezen az oldalon", helpful: "Hasznos volt ez az oldal?", yes: "Igen", no: "Nem", copyPage: "Oldal másolása", viewMarkdown: "Megtekintés Markdownként", askAssistant: "Kérdezze az asszisztenst", copied: "Másolva", askAi: "Kérdezze az AI-t", searchPlaceholder: "Keresés a dokumentációban..." },
  "id": { search: "Cari...", previous: "Sebelumnya", next: "Berikutnya", onThisPage: "Di halaman ini", helpful: "Apakah halaman ini membantu?", yes: "Ya", no: "Tidak", copyPage: "Salin halaman", viewMarkdown: "Lihat sebagai Markdown", askAssistant: "Tanya asisten", copied: "Disalin", askAi: "Tanya AI", searchPlaceholder: "Cari dokumentasi..." },
  "it": { search: "Cerca...", previous: "Precedente", next: "Successivo", onThisPage: "In questa pagina", helpful: "Questa pagina ti è stata utile?", yes: "Sì", no: "No", copyPage: "Copia pagina", viewMarkdown: "Visualizza come Markdown", askAssistant: "Chiedi all'assistente", copied: "Copiato", askAi: "Chiedi all'IA", searchPlaceholder: "Cerca nella documentazione..." },
  "ja": { search: "検索...", previous: "前へ", next: "次へ", onThisPage: "このページの内容", helpful: "このページは役に立ちましたか？", yes: "はい", no: "いいえ", copyPage: "ページをコピー", viewMarkdown: "Markdownで表示", askAssistant: "アシスタントに質問", copied: "コピーしました", askAi: "AIに質問", searchPlaceholder: "ドキュメントを検索..." },
  "ko": { search: "검색...", previous: "이전", next: "다음", onThisPage: "이 페이지의 내용", helpful: "이 페이지가 도움이 되었나요?", yes: "예", no: "아니요", copyPage: "페이지 복사", viewMarkdown: "Markdown으로 보기", askAssistant: "어시스턴트에게 질문", copied: "복사됨", askAi: "AI에게 질문", searchPlaceholder: "문서 검색..." },
  "lv": { search: "Meklēt...", previous: "Iepriekšējā", next: "Nākamā", onThisPage: "Šajā lapā", helpful: "Vai šī lapa bija noderīga?", yes: "Jā", no: "Nē", copyPage: "Kopēt lapu", viewMarkdown: "Skatīt kā Markdown", askAssistant: "Jautāt asistentam", copied: "Nokopēts", askAi: "Jautāt MI", searchPlaceholder: "Meklēt dokumentācijā..." },
  "nl": { search: "Zoeken...", previous: "Vorige", next: "Volgende", onThisPage: "Op deze pagina", helpful: "Was deze pagina nuttig?", yes: "Ja", no: "Nee", copyPage: "Pagina kopiëren", viewMarkdown: "Bekijken als Markdown", askAssistant: "Vraag de assistent", copied: "Gekopieerd", askAi: "Vraag AI", searchPlaceholder: "Documentatie doorzoeken..." },
  "no": { search: "Søk...", previous: "Forrige", next: "Neste", onThisPage: "På denne siden", helpful: "Var denne siden nyttig?", yes: "Ja", no: "Nei", copyPage: "Kopier side", viewMarkdown: "Vis som Markdown", askAssistant: "Spør assistenten", copied: "Kopiert", askAi: "Spør AI", searchPlaceholder: "Søk i dokumentasjonen..." },
  "pl": { search: "Szukaj...", previous: "Poprzednia", next: "Następna", onThisPage: "Na tej stronie", helpful: "Czy ta strona była pomocna?", yes: "Tak", no: "Nie", copyPage: "Kopiuj stronę", viewMarkdown: "Wyświetl jako Markdown", askAssistant: "Zapytaj asystenta", copied: "Skopiowano", askAi: "Zapytaj AI", searchPlaceholder: "Szukaj w dokumentacji..." },
  "pt": { search: "Pesquisar...", previous: "Anterior", next: "Próximo", onThisPage: "Nesta página", helpful: "Esta página foi útil?", yes: "Sim", no: "Não", copyPage: "Copiar página", viewMarkdown: "Ver como Markdown", askAssistant: "Perguntar ao assistente", copied: "Copiado", askAi: "Perguntar à IA", searchPlaceholder: "Pesquisar na documentação..." },
  "ro": { search: "Caută...", previous: "Anterior", next: "Următor", onThisPage: "Pe această pagină", helpful: "A fost utilă această pagină?", yes: "Da", no: "Nu", copyPage: "Copiază pagina", viewMarkdown: "Vezi ca Markdown", askAssistant: "Întreabă asistentul", copied: "Copiat", askAi: "Întreabă AI", searchPlaceholder: "Caută în documentație..." },
  "ru": { search: "Поиск...", previous: "Назад", next: "Далее", onThisPage: "На этой странице", helpful: "Была ли эта страница полезной?", yes: "Да", no: "Нет", copyPage: "Копировать страницу", viewMarkdown: "Открыть как Markdown", askAssistant: "Спросить ассистента", copied: "Скопировано", askAi: "Спросить ИИ", searchPlaceholder: "Поиск по документации..." },
  "sv": { search: "Sök...", previous: "Föregående", next: "Nästa", onThisPage: "På den här sidan", helpful: "Var den här sidan till hjälp?", yes: "Ja", no: "Nej", copyPage: "Kopiera sida", viewMarkdown: "Visa som Markdown", askAssistant: "Fråga assistenten", copied: "Kopierat", askAi: "Fråga AI", searchPlaceholder: "Sök i dokumentationen..." },
  "tr": { search: "Ara...", previous: "Önceki", next: "Sonraki", onThisPage: "Bu sayfada", helpful: "Bu sayfa yardımcı oldu mu?", yes: "Evet", no: "Hayır", copyPage: "Sayfayı kopyala", viewMarkdown: "Markdown olarak görüntüle", askAssistant: "Asistana sor", copied: "Kopyalandı", askAi: "Yapay zekaya sor", searchPlaceholder: "Belgelerde ara..." },
  "uk": { search: "Пошук...", previous: "Назад", next: "Далі", onThisPage: "На цій сторінці", helpful: "Чи була ця сторінка корисною?", yes: "Так", no: "Ні", copyPage: "Копіювати сторінку", viewMarkdown: "Переглянути як Markdown", askAssistant: "Запитати асистента", copied: "Скопійовано", askAi: "Запитати ШІ", searchPlaceholder: "Пошук у документації..." },
  "uz": { search: "Qidirish...", previous: "Oldingi", next: "Keyingi", onThisPage: "Ushbu sahifada", helpful: "Bu sahifa foydali boʻldimi?", yes: "Ha", no: "Yoʻq", copyPage: "Sahifani nusxalash", viewMarkdown: "Markdown koʻrinishida ochish", askAssistant: "Yordamchidan soʻrash", copied: "Nusxalandi", askAi: "SI dan soʻrash", searchPlaceholder: "Hujjatlardan qidirish..." },
  "vi": { search: "Tìm kiếm...", previous: "Trước", next: "Tiếp theo", onThisPage: "Trên trang này", helpful: "Trang này có hữu ích không?", yes: "Có", no: "Không", copyPage: "Sao chép trang", viewMarkdown: "Xem dưới dạng Markdown", askAssistant: "Hỏi trợ lý", copied: "Đã sao chép", askAi: "Hỏi AI", searchPlaceholder: "Tìm trong tài liệu..." },
  "zh-Hans": { search: "搜索...", previous: "上一页", next: "下一页", onThisPage: "本页内容", helpful: "此页面对您有帮助吗？", yes: "是", no: "否", copyPage: "复制页面", viewMarkdown: "以 Markdown 格式查看", askAssistant: "询问助手", copied: "已复制", askAi: "询问 AI", searchPlaceholder: "搜索文档..." },
  "zh-Hant": { search: "搜尋...", previous: "上一頁", next: "下一頁", onThisPage: "本頁內容", helpful: "這個頁面對您有幫助嗎？", yes: "是", no: "否", copyPage: "複製頁面", viewMarkdown: "以 Markdown 格式檢視", askAssistant: "詢問助理", copied: "已複製", askAi: "詢問 AI", searchPlaceholder: "搜尋文件..." },
};

/** Codes Mintlify accepts that name a row under another code. */
const ALIASES: Record<string, RowCode> = {
  cn: 'zh-Hans',
  zh: 'zh-Hans',
  'zh-CN': 'zh-Hans',
  'zh-TW': 'zh-Hant',
  jp: 'ja',
  'ja-JP': 'ja',
  'fr-CA': 'fr',
  'pt-BR': 'pt',
};

/** Every language code Mintlify documents for `navigation.languages`. */
export const MINTLIFY_LANGUAGE_CODES = [...Object.keys(ROWS).filter((c) => c !== 'zh-Hans' && c !== 'zh-Hant'), ...Object.keys(ALIASES), 'zh-Hans', 'zh-Hant'].sort();

const merged = new Map<RowCode, ChromeStrings>();

function row(code: RowCode): ChromeStrings {
  let hit = merged.get(code);
  if (!hit) {
    hit = { ...ROWS[code], ...LAYOUT_ROWS[code], ...CLIENT_ROWS[code], ...PLAYGROUND_ROWS[code], ...SIGN_IN_ROWS[code] };
    merged.set(code, hit);
  }
  return hit;
}

function isRow(code: string): code is RowCode {
  return Object.prototype.hasOwnProperty.call(ROWS, code);
}

/** The row code a language code reads: its own, an alias's, its first subtag's (`de-AT` → `de`), else English. */
export function rowCode(lang: string | undefined): RowCode {
  if (lang === undefined) return 'en';
  const code = ALIASES[lang] ?? lang;
  if (isRow(code)) return code;
  const primary = code.split('-')[0]!.toLowerCase();
  const fallback = ALIASES[primary] ?? primary;
  return isRow(fallback) ? fallback : 'en';
}

/** The words for a language code (see rowCode). */
export function chromeStrings(lang: string | undefined): ChromeStrings {
  return row(rowCode(lang));
}
