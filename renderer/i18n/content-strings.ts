import { chromeStrings, rowCode } from './chrome-strings.js';
import { CLIENT_ROWS } from './client-strings.js';
import type { RowCode } from './row-codes.js';

/**
 * Words the renderer writes inside a page's content (not the chrome): callout labels (read out by
 * screen readers), the field badges of ParamField/ResponseField, the footnotes' heading and links
 * back. A page gets its navigation language's row (renderer/pool/render-batch.ts gives the page
 * renderer the language). Anchors never change with the language: only the words do.
 * `{n}` is filled in by the renderer.
 */
export interface ContentStrings {
  note: string;
  info: string;
  tip: string;
  warning: string;
  check: string;
  danger: string;
  required: string;
  deprecated: string;
  /** Before a field's default value ("default: 10"). */
  defaultValue: string;
  footnotes: string;
  backToReference: string;
  /** Expandable's summary ("Show properties" / "Hide properties") and its default title. */
  show: string;
  hide: string;
  properties: string;
  /** A Tile's link with no title, for screen readers; a Prompt with no description. */
  open: string;
  prompt: string;
  /**
   * A code block's copy button: its visible word and, after a copy, `copied` (renderer/page/copy-button.ts);
   * its accessible name, `copyCode` or `copyPrompt` (the client scripts' words, client-strings.ts).
   */
  copy: string;
  copied: string;
  copyCode: string;
  copyPrompt: string;
  /** A Color swatch's button, `{value}` the color it copies. */
  copyValue: string;
}

type Row = [string, string, string, string, string, string, string, string, string, string, string, string, string, string, string, string, string, string];

// note, info, tip, warning, check, danger, required, deprecated, default, footnotes, back to reference, show, hide, properties, open, prompt, copy, copy {value}
const ROWS: Record<RowCode, Row> = {
  'en': ['Note', 'Info', 'Tip', 'Warning', 'Check', 'Danger', 'required', 'deprecated', 'default', 'Footnotes', 'Back to reference {n}', 'Show', 'Hide', 'properties', 'Open', 'Prompt', 'Copy', 'Copy {value}'],
  'ar': ['ملاحظة', 'معلومات', 'نصيحة', 'تحذير', 'تحقق', 'خطر', 'مطلوب', 'مهمل', 'افتراضي', 'الحواشي', 'العودة إلى المرجع {n}', 'إظهار', 'إخفاء', 'الخصائص', 'فتح', 'موجّه', 'نسخ', 'نسخ {value}'],
  'ca': ['Nota', 'Informació', 'Consell', 'Advertència', 'Comprovació', 'Perill', 'obligatori', 'obsolet', 'per defecte', 'Notes al peu', 'Torna a la referència {n}', 'Mostra', 'Amaga', 'propietats', 'Obre', 'Indicació', 'Copia', 'Copia {value}'],
  'cs': ['Poznámka', 'Informace', 'Tip', 'Upozornění', 'Kontrola', 'Nebezpečí', 'povinné', 'zastaralé', 'výchozí', 'Poznámky pod čarou', 'Zpět na odkaz {n}', 'Zobrazit', 'Skrýt', 'vlastnosti', 'Otevřít', 'Výzva', 'Kopírovat', 'Kopírovat {value}'],
  'da': ['Bemærk', 'Info', 'Tip', 'Advarsel', 'Tjek', 'Fare', 'påkrævet', 'forældet', 'standard', 'Fodnoter', 'Tilbage til henvisning {n}', 'Vis', 'Skjul', 'egenskaber', 'Åbn', 'Prompt', 'Kopiér', 'Kopiér {value}'],
  'de': ['Hinweis', 'Info', 'Tipp', 'Warnung', 'Prüfen', 'Gefahr', 'erforderlich', 'veraltet', 'Standard', 'Fußnoten', 'Zurück zur Referenz {n}', 'Anzeigen', 'Ausblenden', 'Eigenschaften', 'Öffnen', 'Prompt', 'Kopieren', '{value} kopieren'],
  'es': ['Nota', 'Información', 'Consejo', 'Advertencia', 'Verificación', 'Peligro', 'obligatorio', 'obsoleto', 'predeterminado', 'Notas al pie', 'Volver a la referencia {n}', 'Mostrar', 'Ocultar', 'propiedades', 'Abrir', 'Prompt', 'Copiar', 'Copiar {value}'],
  'fi': ['Huomautus', 'Tietoa', 'Vinkki', 'Varoitus', 'Tarkista', 'Vaara', 'pakollinen', 'vanhentunut', 'oletus', 'Alaviitteet', 'Takaisin viittaukseen {n}', 'Näytä', 'Piilota', 'ominaisuudet', 'Avaa', 'Kehote', 'Kopioi', 'Kopioi {value}'],
  'fr': ['Remarque', 'Info', 'Astuce', 'Avertissement', 'Vérification', 'Danger', 'obligatoire', 'obsolète', 'par défaut', 'Notes de bas de page', 'Retour à la référence {n}', 'Afficher', 'Masquer', 'propriétés', 'Ouvrir', 'Prompt', 'Copier', 'Copier {value}'],
  'he': ['הערה', 'מידע', 'טיפ', 'אזהרה', 'בדיקה', 'סכנה', 'חובה', 'מיושן', 'ברירת מחדל', 'הערות שוליים', 'חזרה להפניה {n}', 'הצג', 'הסתר', 'מאפיינים', 'פתח', 'הנחיה', 'העתקה', 'העתקת {value}'],
  'hi': ['नोट', 'जानकारी', 'सुझाव', 'चेतावनी', 'जाँच', 'खतरा', 'आवश्यक', 'अप्रचलित', 'डिफ़ॉल्ट', 'फ़ुटनोट', 'संदर्भ {n} पर वापस जाएँ', 'दिखाएँ', 'छिपाएँ', 'गुण', 'खोलें', 'प्रॉम्प्ट', 'कॉपी करें', '{value} कॉपी करें'],
  'hu': ['Megjegyzés', 'Információ', 'Tipp', 'Figyelmeztetés', 'Ellenőrzés', 'Veszély', 'kötelező', 'elavult', 'alapértelmezett', 'Lábjegyzetek', 'Vissza a(z) {n}. hivatkozáshoz', 'Megjelenítés', 'Elrejtés', 'tulajdonságok', 'Megnyitás', 'Prompt', 'Másolás', '{value} másolása'],
  'id': ['Catatan', 'Info', 'Tips', 'Peringatan', 'Periksa', 'Bahaya', 'wajib', 'usang', 'bawaan', 'Catatan kaki', 'Kembali ke referensi {n}', 'Tampilkan', 'Sembunyikan', 'properti', 'Buka', 'Prompt', 'Salin', 'Salin {value}'],
  'it': ['Nota', 'Info', 'Suggerimento', 'Avviso', 'Verifica', 'Pericolo', 'obbligatorio', 'deprecato', 'predefinito', 'Note a piè di pagina', 'Torna al riferimento {n}', 'Mostra', 'Nascondi', 'proprietà', 'Apri', 'Prompt', 'Copia', 'Copia {value}'],
  'ja': ['注記', '情報', 'ヒント', '警告', '確認', '危険', '必須', '非推奨', 'デフォルト', '脚注', '参照 {n} に戻る', '表示', '非表示', 'プロパティ', '開く', 'プロンプト', 'コピー', '{value} をコピー'],
  'ko': ['참고', '정보', '팁', '경고', '확인', '위험', '필수', '지원 중단', '기본값', '각주', '참조 {n}(으)로 돌아가기', '표시', '숨기기', '속성', '열기', '프롬프트', '복사', '{value} 복사'],
  'lv': ['Piezīme', 'Informācija', 'Padoms', 'Brīdinājums', 'Pārbaude', 'Bīstami', 'obligāts', 'novecojis', 'noklusējums', 'Zemsvītras piezīmes', 'Atpakaļ uz atsauci {n}', 'Rādīt', 'Slēpt', 'īpašības', 'Atvērt', 'Uzvedne', 'Kopēt', 'Kopēt {value}'],
  'nl': ['Opmerking', 'Info', 'Tip', 'Waarschuwing', 'Controle', 'Gevaar', 'verplicht', 'verouderd', 'standaard', 'Voetnoten', 'Terug naar verwijzing {n}', 'Tonen', 'Verbergen', 'eigenschappen', 'Openen', 'Prompt', 'Kopiëren', '{value} kopiëren'],
  'no': ['Merk', 'Info', 'Tips', 'Advarsel', 'Sjekk', 'Fare', 'påkrevd', 'foreldet', 'standard', 'Fotnoter', 'Tilbake til referanse {n}', 'Vis', 'Skjul', 'egenskaper', 'Åpne', 'Ledetekst', 'Kopier', 'Kopier {value}'],
  'pl': ['Uwaga', 'Informacja', 'Wskazówka', 'Ostrzeżenie', 'Sprawdź', 'Niebezpieczeństwo', 'wymagane', 'przestarzałe', 'domyślnie', 'Przypisy', 'Powrót do odnośnika {n}', 'Pokaż', 'Ukryj', 'właściwości', 'Otwórz', 'Prompt', 'Kopiuj', 'Kopiuj {value}'],
  'pt': ['Nota', 'Informação', 'Dica', 'Aviso', 'Verificação', 'Perigo', 'obrigatório', 'obsoleto', 'padrão', 'Notas de rodapé', 'Voltar à referência {n}', 'Mostrar', 'Ocultar', 'propriedades', 'Abrir', 'Prompt', 'Copiar', 'Copiar {value}'],
  'ro': ['Notă', 'Informații', 'Sfat', 'Avertisment', 'Verificare', 'Pericol', 'obligatoriu', 'învechit', 'implicit', 'Note de subsol', 'Înapoi la referința {n}', 'Afișează', 'Ascunde', 'proprietăți', 'Deschide', 'Prompt', 'Copiază', 'Copiază {value}'],
  'ru': ['Примечание', 'Информация', 'Совет', 'Предупреждение', 'Проверка', 'Опасность', 'обязательно', 'устарело', 'по умолчанию', 'Сноски', 'Назад к ссылке {n}', 'Показать', 'Скрыть', 'свойства', 'Открыть', 'Промпт', 'Копировать', 'Копировать {value}'],
  'sv': ['Obs', 'Info', 'Tips', 'Varning', 'Kontroll', 'Fara', 'obligatorisk', 'föråldrad', 'standard', 'Fotnoter', 'Tillbaka till referens {n}', 'Visa', 'Dölj', 'egenskaper', 'Öppna', 'Prompt', 'Kopiera', 'Kopiera {value}'],
  'tr': ['Not', 'Bilgi', 'İpucu', 'Uyarı', 'Kontrol', 'Tehlike', 'zorunlu', 'kullanımdan kaldırıldı', 'varsayılan', 'Dipnotlar', '{n}. referansa dön', 'Göster', 'Gizle', 'özellikler', 'Aç', 'İstem', 'Kopyala', 'Kopyala: {value}'],
  'uk': ['Примітка', 'Інформація', 'Порада', 'Попередження', 'Перевірка', 'Небезпека', "обов'язково", 'застаріло', 'за замовчуванням', 'Виноски', 'Назад до посилання {n}', 'Показати', 'Приховати', 'властивості', 'Відкрити', 'Промпт', 'Копіювати', 'Копіювати {value}'],
  'uz': ['Eslatma', 'Maʼlumot', 'Maslahat', 'Ogohlantirish', 'Tekshirish', 'Xavf', 'majburiy', 'eskirgan', 'standart', 'Izohlar', '{n}-havolaga qaytish', "Ko'rsatish", 'Yashirish', 'xususiyatlar', 'Ochish', 'Soʻrov', 'Nusxalash', 'Nusxalash: {value}'],
  'vi': ['Lưu ý', 'Thông tin', 'Mẹo', 'Cảnh báo', 'Kiểm tra', 'Nguy hiểm', 'bắt buộc', 'không còn dùng', 'mặc định', 'Chú thích', 'Quay lại tham chiếu {n}', 'Hiện', 'Ẩn', 'thuộc tính', 'Mở', 'Lời nhắc', 'Sao chép', 'Sao chép {value}'],
  'zh-Hans': ['注意', '信息', '提示', '警告', '检查', '危险', '必填', '已弃用', '默认值', '脚注', '返回引用 {n}', '显示', '隐藏', '属性', '打开', '提示词', '复制', '复制 {value}'],
  'zh-Hant': ['注意', '資訊', '提示', '警告', '檢查', '危險', '必填', '已棄用', '預設值', '註腳', '返回參照 {n}', '顯示', '隱藏', '屬性', '開啟', '提示詞', '複製', '複製 {value}'],
};

const KEYS: (keyof ContentStrings)[] = ['note', 'info', 'tip', 'warning', 'check', 'danger', 'required', 'deprecated', 'defaultValue', 'footnotes', 'backToReference', 'show', 'hide', 'properties', 'open', 'prompt', 'copy', 'copyValue'];
const built = new Map<RowCode, ContentStrings>();

/** The content words for a language code (chrome-strings.ts's rowCode: aliases, first subtag, else English). */
export function contentStrings(lang: string | undefined): ContentStrings {
  const code = rowCode(lang);
  let hit = built.get(code);
  if (!hit) {
    // The copy button's other words are those the client scripts write on it: one translation each.
    const { copyCode, copyPrompt } = CLIENT_ROWS[code];
    const own = Object.fromEntries(KEYS.map((k, i) => [k, ROWS[code][i]]));
    built.set(code, (hit = Object.freeze({ ...own, copied: chromeStrings(code).copied, copyCode, copyPrompt }) as unknown as ContentStrings));
  }
  return hit;
}
