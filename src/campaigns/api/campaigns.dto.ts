import { ApiProperty, ApiPropertyOptional } from '@nestjs/swagger';
import { Type } from 'class-transformer';
import {
  ArrayMaxSize,
  IsArray,
  IsBoolean,
  IsEmail,
  IsInt,
  IsObject,
  IsString,
  Length,
  Matches,
  Max,
  MaxLength,
  Min,
  ValidateNested,
} from 'class-validator';
import { Optional } from '../../kernel/http/optional';
import { AgentConfigDto } from '../../sessions';

/** Contacts one request may carry (a campaign holds up to 10,000). */
export const MAX_CONTACTS_PER_REQUEST = 1_000;

const LOCAL_TIME = /^([01][0-9]|2[0-3]):[0-5][0-9]$/;

export class ContactDto {
  @ApiProperty({
    example: '+14155550100',
    description: 'International format; an invalid number is accepted and skipped as `invalid`.',
  })
  @IsString()
  @Length(1, 64)
  phone_number!: string;

  @ApiPropertyOptional({ type: String, example: 'ada@example.com', nullable: true })
  @Optional({ nullable: true })
  @IsEmail()
  @MaxLength(254)
  email?: string | null;

  @ApiPropertyOptional({ type: String, example: 'Ada', nullable: true })
  @Optional({ nullable: true })
  @IsString()
  @MaxLength(100)
  first_name?: string | null;

  @ApiPropertyOptional({ type: String, example: 'Lovelace', nullable: true })
  @Optional({ nullable: true })
  @IsString()
  @MaxLength(100)
  last_name?: string | null;

  @ApiPropertyOptional({
    type: String,
    example: 'America/Los_Angeles',
    nullable: true,
    description: 'IANA time zone of the contact; overrides the zone derived from the number.',
  })
  @Optional({ nullable: true })
  @IsString()
  @MaxLength(64)
  timezone?: string | null;
}

export class QuietHoursDto {
  @ApiProperty({ example: '21:00', description: 'Local time (HH:MM) the quiet window starts.' })
  @IsString()
  @Matches(LOCAL_TIME, { message: 'start must be a local time HH:MM' })
  start!: string;

  @ApiProperty({ example: '08:00', description: 'Local time (HH:MM) it ends; equal to start: no quiet hours.' })
  @IsString()
  @Matches(LOCAL_TIME, { message: 'end must be a local time HH:MM' })
  end!: string;
}

export class CampaignSettingsDto {
  @ApiPropertyOptional({ default: 5, minimum: 1, maximum: 100 })
  @Optional()
  @IsInt()
  @Min(1)
  @Max(100)
  max_concurrency?: number;

  @ApiPropertyOptional({ type: QuietHoursDto, description: 'Default 21:00 to 08:00 in each contact\u2019s zone.' })
  @Optional()
  @IsObject()
  @ValidateNested()
  @Type(() => QuietHoursDto)
  quiet_hours?: QuietHoursDto;

  @ApiPropertyOptional({ default: 3, minimum: 1, maximum: 100 })
  @Optional()
  @IsInt()
  @Min(1)
  @Max(100)
  max_calls_per_number_per_day?: number;

  @ApiPropertyOptional({
    type: String,
    format: 'date-time',
    nullable: true,
    example: '2026-03-06T01:00:00.000Z',
    description: 'RFC 3339; contacts still waiting then are skipped.',
  })
  @Optional({ nullable: true })
  @IsString()
  @MaxLength(64)
  ends_at?: string | null;
}

export class CreateCampaignDto {
  @ApiProperty({ example: 'March recall' })
  @IsString()
  @Length(1, 200)
  name!: string;

  @ApiProperty({ example: '+14155550000' })
  @IsString()
  @MaxLength(32)
  from_number!: string;

  @ApiPropertyOptional({ type: AgentConfigDto, description: 'Frozen into the campaign when it starts.' })
  @Optional()
  @IsObject()
  @ValidateNested()
  @Type(() => AgentConfigDto)
  agent_config?: AgentConfigDto;

  @ApiPropertyOptional({ default: false })
  @Optional()
  @IsBoolean()
  test_mode?: boolean;

  @ApiPropertyOptional({ type: [ContactDto], maxItems: MAX_CONTACTS_PER_REQUEST })
  @Optional()
  @IsArray()
  @ArrayMaxSize(MAX_CONTACTS_PER_REQUEST)
  @ValidateNested({ each: true })
  @Type(() => ContactDto)
  contacts?: ContactDto[];

  @ApiPropertyOptional({ type: CampaignSettingsDto })
  @Optional()
  @IsObject()
  @ValidateNested()
  @Type(() => CampaignSettingsDto)
  settings?: CampaignSettingsDto;
}

export class AddContactsDto {
  @ApiProperty({ type: [ContactDto], maxItems: MAX_CONTACTS_PER_REQUEST })
  @IsArray()
  @ArrayMaxSize(MAX_CONTACTS_PER_REQUEST)
  @ValidateNested({ each: true })
  @Type(() => ContactDto)
  contacts!: ContactDto[];
}
